// TodoMVC's client hook (TetherWeb's WebHook "CopyToClipboard"): a click on its element copies
// the element's value to the clipboard, then tells the server whether it could.
"use strict";
(window.TetherHooks ??= {}).CopyToClipboard = {
  mounted() {
    this.onClick = () => this.copy(this.value);
    this.el.addEventListener("click", this.onClick);
  },
  destroyed() {
    this.el.removeEventListener("click", this.onClick);
  },
  copy(text) {
    const done = () => this.pushEvent("copied", text);
    const failed = () => this.pushEvent("failed");
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, () => this.copyBySelection(text, done, failed));
    } else {
      this.copyBySelection(text, done, failed);
    }
  },
  // Where the Clipboard API is not offered (a page served over plain HTTP to another host):
  // the browser's copy command on a selected, unseen text area.
  copyBySelection(text, done, failed) {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    area.remove();
    this.el.focus();
    if (copied) done(); else failed();
  },
};
