// Tether's web client: applies the server's patches to the page, sends the person's gestures,
// keeps the address in step, and reconnects. Served by the app itself (TetherWeb's WebAssets).
"use strict";
(() => {
  const session = document.currentScript.dataset.session;
  // What proves this page's sockets are its session's: it never goes in a URL.
  const secret = document.currentScript.dataset.secret;
  // The newest signed resume token: any server of a cluster rebuilds the session from it.
  let resume = document.currentScript.dataset.resume || null;
  // What the server focuses on the page it served.
  const firstFocus = document.currentScript.dataset.focus;
  // The digest of the app as served: until a patch changes the page, each hello says the
  // page shows it, and a server that renders the same sends no patch for it.
  const served = document.currentScript.dataset.shown;
  let pristine = true;
  // The path the app is mounted at ("" at the root, "/app" under a prefix): the socket and
  // every page address are under it; the server's paths are not.
  const base = document.currentScript.dataset.base || "";
  // Gestures not yet acknowledged — made while the socket was down, or sent to a server
  // that may have died before keeping what they did — sent (again) on each connection.
  // Each has a number; a server skips one it has handled.
  let unacked = [];
  let gestures = 0;
  // The keys the server answers (TetherWeb's WebKey), written in when the script is served.
  const keys = /* WebKey.allCases */ [];
  let socket = null;
  let retries = 0;
  let leaving = false;
  const isTyping = (element) =>
    !!element && (element.tagName === "INPUT" || element.tagName === "TEXTAREA" ||
      element.isContentEditable);
  // Each field's newest edit number: the server acknowledges edits by it, and a value it
  // sends for a field with newer typing than it had seen is not applied.
  const seqs = {};
  const isField = (element) => !!element && !!element.id &&
    ((element.tagName === "INPUT" && element.type !== "file") || element.tagName === "TEXTAREA" ||
      element.tagName === "SELECT");
  // A picker: its value is the chosen option's position; it has no draft and no Enter.
  const isPicker = (element) => element.tagName === "SELECT";
  // A text area's text as rendered is its content; an input's, its value attribute.
  const renderedValue = (element) =>
    element.tagName === "TEXTAREA" ? element.textContent : element.getAttribute("value") || "";
  const isCheckbox = (element) => element.type === "checkbox";
  // A radio is one option of its group, the field the server knows: its choice is the group's
  // edit, numbered under the group's id, and a gesture like a picker's.
  const isRadio = (element) => element.type === "radio";
  const radioGroup = (element) => element.closest("[role=radiogroup][id]");
  const isCheckable = (element) => isCheckbox(element) || isRadio(element);
  const fieldKey = (element) =>
    isRadio(element) && radioGroup(element) ? radioGroup(element).id : element.id;
  // A tick names the version of the value the box showed: the server refuses one made on
  // a value that has changed since (another tab changed the item while this page was away).
  function checkMessage(element) {
    const message = { type: "check", id: element.id, checked: element.checked,
      seq: seqs[element.id] };
    const version = +element.dataset.version;
    if (version > 0) message.ver = version;
    return message;
  }
  const inputMessage = (element) =>
    ({ type: "input", id: element.id, value: element.value, seq: seqs[element.id] });
  // The text fields typed in since their last Enter: a person's draft, sent again on every
  // connection, so a server that rebuilt the session elsewhere takes it. Nothing else is
  // sent again but unacknowledged gestures (a tick is one): a page never re-sends state
  // the server has acknowledged, which another tab may have changed since.
  const drafts = new Set();
  // What each text field held when Enter submitted it, and that edit's number. Text typed
  // after an Enter is the next entry's: when the server's answer to the Enter (a cleared
  // field) arrives after more typing, that typing goes on the answer instead of the answer
  // being set aside as older than the typing.
  const submitted = {};
  // `local` (the field's text now) on the server's `value` as of edit `ack`, if `ack` is the
  // field's last Enter and the text then still starts the field; else null.
  function typedAfterEnter(id, local, value, ack) {
    const entry = submitted[id];
    if (!entry || entry.seq !== ack || !local.startsWith(entry.value)) return null;
    delete submitted[id];
    const merged = value + local.slice(entry.value.length);
    return merged === local ? null : merged;
  }
  // The server answered the field's Enter with no typing since: the Enter's text is done with.
  function answered(id, ack) {
    if (submitted[id] && submitted[id].seq <= ack) delete submitted[id];
  }
  // Sets a field to text merged by typedAfterEnter, keeping the caret as far from the end,
  // and sends it as a new edit: the server had the text as typed.
  function takeMerged(field, text) {
    const fromEnd = typeof field.selectionEnd === "number"
      ? field.value.length - field.selectionEnd : 0;
    field.value = text;
    if (document.activeElement === field) {
      const at = Math.max(0, text.length - fromEnd);
      setCaret(field, at, at);
    }
    seqs[field.id] = (seqs[field.id] || 0) + 1;
    drafts.add(field.id);
    send(inputMessage(field));
  }
  function typedFields() {
    return [...drafts].map((id) => document.getElementById(id))
      .filter((element) => isField(element) && !isCheckable(element) && !isPicker(element))
      .map(inputMessage);
  }

  function connect(resync) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = "session=" + encodeURIComponent(session) + (resync ? "&resync=1" : "");
    socket = new WebSocket(scheme + "://" + location.host + base + "/ws?" + query);
    socket.onopen = () => {
      const hello = { type: "hello", secret: secret };
      if (resume) hello.token = resume;
      if (pristine && served) hello.shown = served;
      socket.send(JSON.stringify(hello));
      // The gestures first (an Enter carries the text it submitted), then what the fields
      // hold now.
      for (const message of unacked) socket.send(JSON.stringify(message));
      for (const message of typedFields()) socket.send(JSON.stringify(message));
      document.dispatchEvent(new CustomEvent("tether:connected"));
    };
    // The server numbers its messages on each socket: a gap means one was lost, and only a
    // full redraw (a new socket, resync) makes the page right again.
    let expected = 1;
    const current = socket;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.n !== expected++) { current.close(4000, "missed a message"); return; }
      // The session took this socket (it answers only a hello it accepted): a later drop
      // starts its back-off afresh. An open alone proves nothing: a socket closed at once
      // (its hello refused or too large) keeps backing off.
      retries = 0;
      apply(message);
    };
    socket.onclose = (event) => {
      // The server fails what was still arriving over this socket: nothing is sent again.
      if (socket === current) { sending.clear(); offered.clear(); }
      // 4409: a newer socket of this page took over; this one is done. So is a socket the page
      // already replaced (closed on pagehide, its close arriving after pageshow connected
      // anew): reconnecting for it would replace the new one.
      if (leaving || socket !== current || event.code === 4409) return;
      // 4404: the session is gone (expired, or the server restarted); 4403: its resume token
      // or its proof was refused. Either way, load this URL anew.
      if (event.code === 4404 || event.code === 4403) { location.reload(); return; }
      // Exponential back-off with jitter, from 100 ms to 30 s: a page that can never connect
      // does not hammer the server, and many pages dropped together do not return together.
      const wait = Math.min(30000, 100 * 2 ** Math.min(retries++, 9));
      setTimeout(() => connect(true), wait / 2 + Math.random() * wait / 2);
    };
  }

  function send(message, isGesture = message.type !== "input") {
    // A text field's edits are not numbered: its latest value goes on the next connection.
    // A picker's choice is a gesture like a click: numbered, and sent again until kept.
    if (isGesture) {
      message.g = ++gestures;
      unacked.push(message);
      if (unacked.length > 100) unacked.shift();
    }
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // Turns the DOM node `old` into `next` (parsed from the server's HTML), keeping every
  // element whose tag and id are unchanged — and with it focus, caret, an IME's
  // composition and a screen reader's place — and replacing only what differs.
  function sameKind(old, next) {
    return old.nodeType === next.nodeType &&
      (old.nodeType !== 1 || (old.tagName === next.tagName && old.id === next.id));
  }
  function morph(old, next) {
    if (!sameKind(old, next)) { old.replaceWith(next); return; }
    if (old.nodeType !== 1) {
      if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
      return;
    }
    for (const { name } of [...old.attributes]) {
      if (!next.hasAttribute(name)) old.removeAttribute(name);
    }
    for (const { name, value } of next.attributes) {
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    }
    // A field's live value follows the server's unless the page typed since the newest
    // edit the server had seen.
    if (isField(old) && (seqs[fieldKey(old)] || 0) <= (+next.dataset.ack || 0)) {
      answered(old.id, +next.dataset.ack || 0);
      if (isCheckable(old)) old.checked = next.hasAttribute("checked");
      else if (old.value !== renderedValue(next)) old.value = renderedValue(next);
    } else if (isField(old) && !isCheckable(old)) {
      const merged = typedAfterEnter(old.id, old.value, renderedValue(next), +next.dataset.ack);
      if (merged !== null) takeMerged(old, merged);
    }
    // A text area's content is its value, set above: its text node is left alone. A stream's
    // rows are the page's (the server keeps none): only a patch of the stream changes them.
    if (old.tagName !== "TEXTAREA" && old.dataset.stream === undefined) morphChildren(old, next);
  }
  function morphChildren(parent, next) {
    const keyed = new Map();
    for (const child of parent.children) if (child.id) keyed.set(child.id, child);
    let cursor = parent.firstChild;
    for (const child of [...next.childNodes]) {
      let match = child.nodeType === 1 && child.id ? keyed.get(child.id) : undefined;
      // A node without an id is matched by its place.
      if (!match && cursor && !(cursor.nodeType === 1 && cursor.id) && sameKind(cursor, child)) {
        match = cursor;
      }
      if (!match) { parent.insertBefore(child, cursor); continue; }
      keyed.delete(match.id);
      if (match === cursor) cursor = cursor.nextSibling;
      else parent.insertBefore(match, cursor);
      morph(match, child);
    }
    while (cursor) { const after = cursor.nextSibling; cursor.remove(); cursor = after; }
  }
  // Email, number and date fields have no caret a script may set (Chromium throws).
  function setCaret(field, start, end) {
    if (typeof field.selectionStart !== "number") return;
    try { field.setSelectionRange(start, end); } catch (error) { /* no caret to set */ }
  }
  function parsed(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // The server's patches, each a record of fixed fields named here once (the order of
  // `HTMLPatch`'s cases' fields in `ServerMessage.json`): `["a", id, name, value]` reads as
  // { op: "a", id, name, value }. A field a patch leaves out is undefined (an attribute
  // removed has no value).
  const patchFields = {
    r: ["id", "html"],            // replace the element
    c: ["id", "html"],            // replace its children
    t: ["id", "text"],            // set its text
    a: ["id", "name", "value"],   // set an attribute; no value removes it
    i: ["id", "after", "html"],   // insert after the child `after` ("" for first)
    d: ["id"],                    // remove the element
    m: ["id", "child", "after"],  // move its child right after `after` ("" for first)
    v: ["id", "value", "ack"],    // a field's live value, as of the edit `ack`
    s: ["id", "html", "start", "limit"], // a stream's row: in place, or first/last; a limit
  };
  function named(record) {
    const patch = { op: record[0] };
    (patchFields[record[0]] || []).forEach((field, index) => { patch[field] = record[index + 1]; });
    return patch;
  }

  function apply(message) {
    const typing = isTyping(document.activeElement) ? document.activeElement : null;
    const caret = typing && typeof typing.selectionStart === "number"
      ? [typing.selectionStart, typing.selectionEnd] : null;
    // Every field typed in, as the page shows it: a patch that redraws one must not take
    // away text the server has not yet seen.
    const fields = {};
    for (const id of Object.keys(seqs)) {
      const element = document.getElementById(id);
      if (isField(element)) fields[id] = element;
    }
    const scrollY = window.scrollY;
    if (message.r) resume = message.r;
    if (message.k) unacked = unacked.filter((gesture) => gesture.g > message.k);
    if (message.u) uploadSignals(message.u);
    if (message.p.length > 0) pristine = false;
    // The server names what to focus, "f"; the page never decides focus on its own.
    const focus = message.f;
    const patches = message.p.map(named);
    for (const patch of patches) {
      const element = document.getElementById(patch.id);
      if (!element) continue;
      switch (patch.op) {
        case "r": {
          const next = parsed(patch.html).firstChild;
          if (next) morph(element, next); else element.remove();
          break;
        }
        case "c": morphChildren(element, parsed(patch.html)); break;
        case "t": element.textContent = patch.text; break;
        case "a":
          if (patch.value === undefined) element.removeAttribute(patch.name);
          else element.setAttribute(patch.name, patch.value);
          break;
        case "i": {
          const template = document.createElement("template");
          template.innerHTML = patch.html;
          const after = patch.after ? document.getElementById(patch.after) : null;
          if (after && after.parentNode === element) after.after(...template.content.childNodes);
          else element.prepend(...template.content.childNodes);
          break;
        }
        case "d": element.remove(); break;
        case "s": {
          const row = parsed(patch.html).firstElementChild;
          if (!row) break;
          const kept = document.getElementById(row.id);
          if (kept && kept.parentNode === element) morph(kept, row);
          else if (patch.start) element.prepend(row);
          else element.append(row);
          // Past the limit, rows go from the other end.
          while (patch.limit > 0 && element.children.length > patch.limit) {
            (patch.start ? element.lastElementChild : element.firstElementChild).remove();
          }
          break;
        }
        case "m": {
          const child = document.getElementById(patch.child);
          if (!child || child.parentNode !== element) break;
          const after = patch.after ? document.getElementById(patch.after) : null;
          if (after && after.parentNode === element) after.after(child);
          else element.prepend(child);
          break;
        }
        case "v":
          // The model changed the field on purpose; newer typing than it had seen stays.
          element.dataset.ack = patch.ack;
          if ((seqs[fieldKey(element)] || 0) > patch.ack) {
            const merged = isCheckable(element) ? null
              : typedAfterEnter(element.id, element.value, patch.value, patch.ack);
            if (merged !== null) takeMerged(element, merged);
            break;
          }
          answered(element.id, patch.ack);
          if (isCheckable(element)) element.checked = patch.value;
          else if (element.value !== patch.value) element.value = patch.value;
          break;
      }
    }
    // A field a patch redrew gets back the text the server had not yet acknowledged, and
    // the field the person was typing in keeps focus and caret.
    for (const [id, old] of Object.entries(fields)) {
      const now = document.getElementById(id);
      if (!isField(now) || now === old) continue;
      let merged = null;
      if ((seqs[fieldKey(now)] || 0) > (+now.dataset.ack || 0)) {
        if (isCheckable(now)) now.checked = old.checked;
        else {
          merged = typedAfterEnter(id, old.value, now.value, +now.dataset.ack || 0);
          now.value = old.value;
        }
      } else answered(id, +now.dataset.ack || 0);
      if (old === typing && !focus) {
        now.focus({ preventScroll: true });
        if (caret) setCaret(now, caret[0], caret[1]);
      }
      if (merged !== null) takeMerged(now, merged);
    }
    if (message.path && base + message.path !== location.pathname) {
      history.pushState(null, "", base + message.path);
    }
    if (message.title) document.title = message.title;
    // A reconnect redraws the whole app: the page stays where the reader had scrolled it,
    // and focusing the selection again does not scroll it.
    const redrawn = patches.some((patch) => patch.op === "r" && patch.id === "app");
    if (redrawn) window.scrollTo(0, scrollY);
    if (focus) {
      // The server decides focus; a redraw does not take it from a field being typed in.
      const target = document.getElementById(focus);
      const keep = isTyping(document.activeElement) && (redrawn || !isField(target));
      if (target && !keep && document.activeElement !== target) {
        target.focus({ preventScroll: redrawn });
        // A text field the server focuses takes its caret at the end, to type on.
        if (isField(target) && !isCheckable(target)) {
          setCaret(target, target.value.length, target.value.length);
        }
      }
    }
    runHooks();
    document.dispatchEvent(new CustomEvent("tether:applied", { detail: { redrawn } }));
  }

  // Client hooks (TetherWeb's WebHook): each element with `data-hook` gets an object of its
  // own on the callbacks its script registered on window.TetherHooks, mounted when it appears,
  // updated when its value changes, destroyed when it goes. A hook that throws is logged and
  // never stops the page applying what the server sent.
  const hooked = new Map();
  function callHook(entry, phase) {
    document.dispatchEvent(new CustomEvent("tether:hook", { detail: {
      hook: entry.name, id: entry.instance.el.id, phase, value: entry.value } }));
    const callback = entry.instance[phase];
    if (typeof callback !== "function") return;
    try { callback.call(entry.instance); } catch (error) { console.error(error); }
  }
  function mountHook(element) {
    const name = element.dataset.hook;
    const definition = (window.TetherHooks || {})[name];
    if (!definition) { console.error("Tether: no hook named " + name); return; }
    const instance = Object.create(definition);
    instance.el = element;
    // Sent as a gesture: numbered, and sent again after a reconnect until acknowledged.
    instance.pushEvent = (event, value) => {
      if (!element.isConnected) return;
      send({ type: "hook", id: element.id, event: String(event),
        value: value === undefined ? "" : String(value) });
    };
    const entry = { name, instance, value: element.dataset.hookValue || "" };
    Object.defineProperty(instance, "value", { get: () => entry.value });
    hooked.set(element, entry);
    callHook(entry, "mounted");
  }
  function runHooks() {
    for (const [element, entry] of hooked) {
      if (!element.isConnected || element.dataset.hook !== entry.name) {
        hooked.delete(element);
        callHook(entry, "destroyed");
      }
    }
    for (const element of document.querySelectorAll("[data-hook][id]")) {
      const entry = hooked.get(element);
      if (!entry) { mountHook(element); continue; }
      const value = element.dataset.hookValue || "";
      if (value !== entry.value) { entry.value = value; callHook(entry, "updated"); }
    }
  }

  // Uploads (TetherWeb's fileInput): the page offers the files a person chose or dropped (name,
  // size, type), the server answers with a reference for each it takes (0 for a refused one),
  // and each taken file goes over the socket in binary chunks: its reference (4 bytes,
  // big-endian), then up to 16,380 bytes of it, at most a window ahead of the bytes the server says
  // have arrived.
  const chunkSize = 16380;             // a frame of 16 KiB with the reference
  const uploadWindow = 32 * chunkSize;
  const offered = new Map();   // input id -> the files offered, awaiting the server's answer
  const sending = new Map();   // reference -> { file, sent, acknowledged, reading }
  function offerFiles(input, files) {
    const list = [...files].slice(0, 32);
    if (!input || list.length === 0) return;
    offered.set(input.id, list);
    send({ type: "upload", id: input.id, files: list.map((file) => ({
      name: (file.name || "file").slice(0, 120), size: file.size,
      type: (file.type || "").slice(0, 100) })) }, false);
    input.value = "";
  }
  function uploadSignals(signals) {
    for (const [op, first, second] of signals) {
      if (op === "o") {
        const files = offered.get(first) || [];
        offered.delete(first);
        second.forEach((reference, index) => {
          if (reference > 0 && files[index]) {
            sending.set(reference, { file: files[index], sent: 0, acknowledged: 0, reading: false });
          }
        });
      } else if (op === "a") {
        const entry = sending.get(first);
        if (entry) entry.acknowledged = second;
        if (entry && second >= entry.file.size) sending.delete(first);
      } else if (op === "x") sending.delete(first);
    }
    for (const reference of sending.keys()) pump(reference);
  }
  // Sends the file's next chunk while the window allows, one read at a time.
  function pump(reference) {
    const entry = sending.get(reference);
    if (!entry || entry.reading || entry.sent >= entry.file.size ||
        entry.sent - entry.acknowledged >= uploadWindow) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    entry.reading = true;
    const end = Math.min(entry.file.size, entry.sent + chunkSize);
    entry.file.slice(entry.sent, end).arrayBuffer().then((bytes) => {
      entry.reading = false;
      if (sending.get(reference) !== entry || !socket || socket.readyState !== WebSocket.OPEN) {
        return;
      }
      const frame = new Uint8Array(4 + bytes.byteLength);
      new DataView(frame.buffer).setUint32(0, reference);
      frame.set(new Uint8Array(bytes), 4);
      socket.send(frame);
      entry.sent = end;
      pump(reference);
    }, () => { entry.reading = false; sending.delete(reference); });
  }
  document.addEventListener("dragover", (event) => {
    const zone = event.target.closest && event.target.closest("[data-drop]");
    if (!zone) return;
    event.preventDefault();
    zone.classList.add("dragging");
  });
  document.addEventListener("dragleave", (event) => {
    const zone = event.target.closest && event.target.closest("[data-drop]");
    if (zone) zone.classList.remove("dragging");
  });
  document.addEventListener("drop", (event) => {
    const zone = event.target.closest && event.target.closest("[data-drop]");
    if (!zone) return;
    event.preventDefault();
    zone.classList.remove("dragging");
    offerFiles(document.getElementById(zone.dataset.drop), event.dataTransfer.files);
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest("[data-back]")) { history.back(); return; }
    const target = event.target.closest("button[id], [id][data-click]");
    // A hooked element's clicks are its script's, unless its markup takes them too.
    if (!target || (target.dataset.hook !== undefined && target.dataset.click === undefined)) {
      return;
    }
    event.preventDefault();
    send({ type: "click", id: target.id });
  });
  document.addEventListener("dblclick", (event) => {
    const target = event.target.closest("[data-dblclick][id]");
    if (!target) return;
    event.preventDefault();
    send({ type: "dblclick", id: target.id });
  });
  document.addEventListener("input", (event) => {
    const field = event.target;
    if (!isField(field) || isCheckbox(field)) return;
    if (isRadio(field)) {
      const group = radioGroup(field);
      if (!group || !field.checked) return;
      seqs[group.id] = (seqs[group.id] || 0) + 1;
      send({ type: "input", id: group.id, value: field.value, seq: seqs[group.id] }, true);
      return;
    }
    seqs[field.id] = (seqs[field.id] || 0) + 1;
    // A choice is a gesture, sent again only until acknowledged: never a draft, which would be
    // sent again on every connection and could undo another tab's later choice.
    if (!isPicker(field)) drafts.add(field.id);
    send(inputMessage(field), isPicker(field));
  });
  document.addEventListener("change", (event) => {
    const field = event.target;
    if (field.type === "file" && field.dataset.upload !== undefined) {
      offerFiles(field, field.files);
      return;
    }
    if (!isField(field) || !isCheckbox(field)) return;
    seqs[field.id] = (seqs[field.id] || 0) + 1;
    send(checkMessage(field));
  });
  document.addEventListener("focusin", (event) => {
    if (isField(event.target) && !isRadio(event.target)) {
      send({ type: "focus", id: event.target.id });
    }
  });
  document.addEventListener("focusout", (event) => {
    if (isField(event.target) && !isRadio(event.target) && event.target.isConnected) {
      send({ type: "blur", id: event.target.id });
    }
  });
  document.addEventListener("keydown", (event) => {
    // Enter in a text area starts a new line; Escape cancels as in a text field.
    const isArea = event.target.tagName === "TEXTAREA";
    if (isField(event.target) && !isCheckable(event.target) && !isPicker(event.target) &&
        !event.isComposing &&
        (event.key === "Escape" || (event.key === "Enter" && !isArea))) {
      event.preventDefault();
      const field = event.target;
      if (event.key === "Escape") send({ type: "cancel", id: field.id });
      // Enter says what it submits, so a retry submits the same text. An Enter with
      // nothing typed since an Enter still unacknowledged submits nothing again.
      else if (seqs[field.id]) {
        const pending = unacked.some((gesture) => gesture.type === "submit" &&
          gesture.id === field.id && gesture.seq === seqs[field.id]);
        if (pending) return;
        drafts.delete(field.id);
        submitted[field.id] = { seq: seqs[field.id], value: field.value };
        send({ type: "submit", id: field.id, value: field.value, seq: seqs[field.id] });
      } else send({ type: "submit", id: field.id });
      return;
    }
    if (isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
    // Enter on a focused button presses that button (the browser clicks it), not the screen's
    // default: an alert's destructive button reached with Tab is pressed as a person expects.
    if (event.key === "Enter" && event.target.closest && event.target.closest("button")) return;
    if (!keys.includes(event.key)) return;
    event.preventDefault();
    send({ type: "key", key: event.key });
  });
  window.addEventListener("popstate", () =>
    send({ type: "navigate", path: location.pathname.slice(base.length) || "/" }));
  window.addEventListener("pagehide", () => { leaving = true; if (socket) socket.close(); });
  window.addEventListener("pageshow", (event) => {
    // Restored from the back-forward cache: the socket was closed; resume the session.
    if (event.persisted) { leaving = false; connect(true); }
  });
  const focused = firstFocus && document.getElementById(firstFocus);
  if (focused) focused.focus({ preventScroll: true });
  runHooks();
  connect(false);
})();
