// rules-kb: copy-link buttons and the diff pages' "hide editorial changes" control. No network.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement("textarea");  // http://127.0.0.1 is secure; a LAN address is not
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.rk-copy");
    if (!button) return;
    var url = new URL(button.getAttribute("data-copy"), window.location.href).href;
    copyText(url).then(function () {
      button.classList.add("rk-copied");
      button.setAttribute("data-copied", url);
      button.title = "copied: " + url;
    });
  });

  var hide = document.getElementById("rk-hide-editorial");
  if (hide) {
    var apply = function () { document.body.classList.toggle("rk-hide-editorial", hide.checked); };
    hide.addEventListener("change", apply);
    apply();
  }
})();
