"""The script that turns one frame's DOM into snapshot lines, run inside the page.

A walk over the DOM in document order, stopped after ``maxNodes`` elements or
``maxChars`` characters so a 20,000-element page costs no more than the cap. Each element
the model can act on gets a ref, kept on the element itself: the same element has the
same ref in every snapshot, and the numbers come from one counter for the whole session
(passed in as ``next``), so a ref is never reused by another page's element. Containers
without a role (div, span) add no line of their own. An iframe leaves a placeholder that
the caller fills with the frame's own snapshot.
"""

SNAPSHOT_JS = r"""
(args) => {
  let next = args.next;
  const maxNodes = args.maxNodes, maxChars = args.maxChars;
  const refs = (window.__handsRefs ||= new Map());
  const lines = [];
  const found = [];
  let chars = 0, nodes = 0, cut = false, frames = 0;
  const active = document.activeElement;
  const INPUT_ROLES = {checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton",
    search: "searchbox", button: "button", submit: "button", reset: "button", image: "button",
    hidden: null};
  const TAG_ROLES = {A: null, BUTTON: "button", TEXTAREA: "textbox", OPTION: "option",
    UL: "list", OL: "list", MENU: "list", LI: "listitem", NAV: "navigation", MAIN: "main",
    HEADER: "banner", FOOTER: "contentinfo", ASIDE: "complementary", TABLE: "table",
    TR: "row", TD: "cell", TH: "columnheader", DIALOG: "dialog", P: "paragraph",
    FIELDSET: "group", PROGRESS: "progressbar", HR: "separator", IFRAME: "iframe",
    SUMMARY: "button", ARTICLE: "article", SECTION: null, FORM: null, IMG: "img",
    H1: "heading", H2: "heading", H3: "heading", H4: "heading", H5: "heading", H6: "heading"};
  const ACTIVE = new Set(["link", "button", "checkbox", "radio", "textbox", "searchbox",
    "combobox", "listbox", "option", "slider", "spinbutton", "tab", "menuitem", "switch",
    "menuitemcheckbox", "menuitemradio", "treeitem"]);
  const FROM_CONTENT = new Set(["button", "link", "heading", "option", "tab", "menuitem",
    "cell", "columnheader", "treeitem", "switch"]);
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK"]);
  const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const quote = (s) => JSON.stringify(s);

  function role(el) {
    const given = el.getAttribute("role");
    if (given) return given.split(" ")[0];
    const tag = el.tagName;
    if (tag === "A") return el.hasAttribute("href") ? "link" : null;
    if (tag === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      return type in INPUT_ROLES ? INPUT_ROLES[type] : "textbox";
    }
    if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "IMG") return el.getAttribute("alt") ? "img" : null;
    if (tag in TAG_ROLES) return TAG_ROLES[tag];
    if (el.isContentEditable && el.getAttribute("contenteditable") !== null) return "textbox";
    if (el.hasAttribute("onclick") || el.tabIndex >= 0 && el.hasAttribute("tabindex"))
      return "generic-clickable";
    return null;
  }

  function name(el, r) {
    const label = el.getAttribute("aria-label");
    if (label) return squash(label);
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const text = by.split(/\s+/).map((id) => document.getElementById(id))
        .filter(Boolean).map((e) => e.textContent).join(" ");
      if (squash(text)) return squash(text);
    }
    if (el.labels && el.labels.length) {
      const own = Array.from(el.labels).map((l) => {
        let text = "";
        for (const n of l.childNodes) {
          if (n.nodeType === 3) text += n.textContent;
          else if (n.nodeType === 1 && !["INPUT", "SELECT", "TEXTAREA"].includes(n.tagName))
            text += n.textContent;
        }
        return text;
      }).join(" ");
      if (squash(own)) return squash(own);
    }
    if (el.tagName === "IMG") return squash(el.getAttribute("alt"));
    if (el.tagName === "INPUT" && ["button", "submit", "reset"].includes(el.type))
      return squash(el.value || (el.type === "submit" ? "Submit" : ""));
    if (FROM_CONTENT.has(r) || r === "generic-clickable") {
      const text = squash(el.innerText !== undefined ? el.innerText : el.textContent);
      if (text) return clip(text, 120);
    }
    return squash(el.getAttribute("title") || el.getAttribute("placeholder") || "");
  }

  function states(el, r) {
    const out = [];
    if (r === "heading")
      out.push("[level=" + (el.getAttribute("aria-level") || el.tagName[1]) + "]");
    if (el.checked === true || el.getAttribute("aria-checked") === "true") out.push("[checked]");
    if (el.disabled === true || el.getAttribute("aria-disabled") === "true")
      out.push("[disabled]");
    const expanded = el.getAttribute("aria-expanded");
    if (expanded !== null) out.push(expanded === "true" ? "[expanded]" : "[collapsed]");
    if (r === "option" && (el.selected || el.getAttribute("aria-selected") === "true"))
      out.push("[selected]");
    if (el === active && active !== document.body) out.push("[focused]");
    return out;
  }

  function value(el, r) {
    if (r === "textbox" || r === "searchbox" || r === "spinbutton" || r === "slider") {
      if (el.type === "password") return el.value ? "•".repeat(Math.min(el.value.length, 12)) : "";
      const v = el.value !== undefined ? el.value : el.textContent;
      return clip(squash(v), 200);
    }
    return "";
  }

  function emit(depth, text) {
    if (cut) return false;
    if (chars + text.length + depth * 2 > maxChars) { cut = true; return false; }
    const line = "  ".repeat(depth) + "- " + text;
    lines.push(line);
    chars += line.length + 1;
    return true;
  }

  function text(depth, node) {
    const t = squash(node.textContent);
    if (t) emit(depth, "text: " + clip(t, 300));
  }

  function walk(el, depth) {
    for (const node of el.childNodes) {
      if (cut) return;
      if (node.nodeType === 3) { text(depth, node); continue; }
      if (node.nodeType !== 1 || SKIP.has(node.tagName)) continue;
      if (++nodes > maxNodes) { cut = true; return; }
      if (node.getAttribute("aria-hidden") === "true") continue;
      if (node.checkVisibility && !node.checkVisibility()) continue;
      visit(node, depth);
    }
    if (el.shadowRoot) walk(el.shadowRoot, depth);
  }

  function visit(el, depth) {
    let r = role(el);
    if (r === "presentation" || r === "none") { walk(el, depth); return; }
    if (r === null) { walk(el, depth); return; }
    const clickable = r === "generic-clickable";
    if (clickable) r = "generic";
    let head = r;
    const n = name(el, clickable ? "generic-clickable" : r);
    if (n) head += " " + quote(clip(n, 200));
    for (const s of states(el, r)) head += " " + s;
    if (ACTIVE.has(r) || clickable) {
      if (!el.__handsRef) el.__handsRef = "e" + next++;
      refs.set(el.__handsRef, new WeakRef(el));
      found.push(el.__handsRef);
      head += " [ref=" + el.__handsRef + "]";
    }
    if (r === "iframe") {
      el.__handsFrame ||= "frame" + Math.random().toString(36).slice(2, 10);
      frames++;
      emit(depth, head + ":");
      emit(depth + 1, "<<" + el.__handsFrame + ">>");
      return;
    }
    const v = value(el, r);
    if (FROM_CONTENT.has(r) || r === "img" || clickable || v || r === "textbox") {
      emit(depth, v ? head + ": " + v : head);
      const href = r === "link" && el.getAttribute("href");
      if (href) emit(depth + 1, "/url: " + href);
      return;
    }
    const inline = Array.from(el.children).every((c) => !role(c) && c.children.length === 0);
    if (inline && (r === "listitem" || r === "paragraph" || r === "cell")) {
      const t = squash(el.textContent);
      emit(depth, t ? head + ": " + clip(t, 300) : head);
      return;
    }
    if (emit(depth, head + ":")) walk(el, depth + 1);
  }

  walk(document.body || document.documentElement, 0);
  const total = document.getElementsByTagName("*").length;
  const doc = (window.__handsDoc ||= Math.random().toString(36).slice(2, 12));
  return {lines: lines.join("\n"), refs: found, next, cut, nodes: Math.min(nodes, maxNodes),
          total, frames, doc};
}
"""

RESOLVE_JS = r"""
(ref) => {
  const held = window.__handsRefs && window.__handsRefs.get(ref);
  const el = held && held.deref();
  return el && el.isConnected ? el : null;
}
"""

FRAME_KEY_JS = "(el) => el.__handsFrame || null"
