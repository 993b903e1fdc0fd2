"""The knowledge base: the catalog of versions and the networkx graph over them."""
