// rules-kb: copy-link buttons and the diff pages' "hide editorial changes" control. No network.
(function () {
  "use strict";

  // Offline: the service worker at the site's root (sw.js) keeps today's rulebooks, the search
  // index and the pages opened. Only over http(s): a site opened from a folder has no worker.
  const here = document.currentScript ? document.currentScript.src : null;
  if (here && "serviceWorker" in navigator && /^https?:$/.test(window.location.protocol)) {
    navigator.serviceWorker.register(new URL("../sw.js", here).href).catch(function () { /* private mode, old browser */ });
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    const area = document.createElement("textarea");  // http://127.0.0.1 is secure; a LAN address is not
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button.rk-copy");
    if (!button) return;
    const url = new URL(button.getAttribute("data-copy"), window.location.href).href;
    copyText(url).then(function () {
      button.classList.add("rk-copied");
      button.setAttribute("data-copied", url);
      button.title = "copied: " + url;
    });
  });

  // A chapter page holds thousands of rules: their copy buttons are made here, not shipped in the HTML.
  function button(label, target, title) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "rk-copy";
    node.textContent = label;
    node.title = title;
    node.setAttribute("data-copy", target);
    return node;
  }
  function addCopyButtons() {
    document.querySelectorAll(".rk-chapter .rk-rule[id] > .rk-head").forEach(function (head) {
      if (head.querySelector(".rk-copies")) return;
      const number = head.querySelector("a.rk-num");
      const copies = document.createElement("span");
      copies.className = "rk-copies";
      copies.appendChild(button("copy pinned link", "#" + head.parentNode.id, "copy this version's permalink"));
      if (number) copies.appendChild(button("copy rule link", number.getAttribute("href"), "copy the version-independent permalink"));
      head.appendChild(copies);
    });
    document.dispatchEvent(new CustomEvent("rk-copy-buttons"));  // ui.js puts their labels into Japanese
  }
  addCopyButtons();
  document.addEventListener("rk-chapter-drawn", addCopyButtons);  // an older release's page, drawn by reader.js

  const hide = document.getElementById("rk-hide-editorial");
  if (hide) {
    const apply = function () { document.body.classList.toggle("rk-hide-editorial", hide.checked); };
    hide.addEventListener("change", apply);
    apply();
  }
})();
