"""Tournament documents: Magic's Tournament Rules (MTR) and Infraction Procedure Guide (IPG), and
Duel Masters' 競技イベント運営ルール with its ペナルティガイドライン, read from the text of their PDFs.

``outline`` splits any of them into numbered sections and labelled parts; ``magic`` and
``duel_masters`` hold what differs between the publishers (headings, part names, penalties, dates);
``contents`` reads each document's own contents pages, the independent check of the outline.
"""
