// Progressive enhancement for the data pages. Without JavaScript every row shows, every
// detail opens on click, and the guide's static table stays. Text that comes from the data or
// the address is only ever written with textContent, never as HTML.
(function () {
  "use strict";

  function each(root, selector, fn) { Array.prototype.forEach.call(root.querySelectorAll(selector), fn); }
  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }

  // --- State in the query string (never the fragment: it belongs to promised anchors) ------
  function params() { return new URLSearchParams(window.location.search); }
  function setParams(update) {
    var p = params();
    Object.keys(update).forEach(function (key) {
      if (update[key] === null || update[key] === "" || update[key] === false) { p.delete(key); } else { p.set(key, update[key]); }
    });
    var query = p.toString();
    history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
  }
  // Only values that exist on the page are accepted from the address.
  function known(value, allowed) { return allowed.indexOf(value) >= 0 ? value : ""; }
  // A value from the address names a record only if the map has it as its own key:
  // `?a=__proto__` or `?a=constructor` is no engine.
  function lookup(map, key) { return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined; }
  // The fragment as an id; a malformed escape (`#%E0%A4%A`) is no id, never an error.
  function fragmentId() {
    try { return decodeURIComponent(window.location.hash.slice(1)); } catch (error) { return ""; }
  }


  // --- Feature matrix ---------------------------------------------------------------------
  function setUpMatrix(matrix) {
    // Status order, best first, for sorting: from the status vocabulary, which the page carries
    var ranks = JSON.parse(matrix.getAttribute("data-ranks") || "{}");
    var rankOf = function (status) { var r = lookup(ranks, status); return r === undefined ? 1e9 : r; };
    var category = matrix.querySelector("[data-di-filter-category]");
    var engine = matrix.querySelector("[data-di-filter-engine]");
    var status = matrix.querySelector("[data-di-filter-status]");
    var count = matrix.querySelector("[data-di-count]");
    var form = matrix.querySelector("form");
    var scroll = matrix.querySelector("[data-di-scroll]");
    // one table per category; the first one's head is the one the sticky bar copies
    var table = scroll.querySelector("table");
    var optionValues = function (select) { return Array.prototype.map.call(select.options, function (o) { return o.value; }); };

    var p = params();
    var engines = optionValues(engine).slice(1);
    var wantedEngine = p.get("engine") || "";
    // links made before engines were named by id gave the column's number: 1 is the first engine
    if (/^[0-9]+$/.test(wantedEngine) && engines[Number(wantedEngine) - 1]) { wantedEngine = engines[Number(wantedEngine) - 1]; }
    category.value = known(p.get("category") || "", optionValues(category));
    engine.value = known(wantedEngine, optionValues(engine));
    status.value = known(p.get("status") || "", optionValues(status));

    function cellMatches(row) {
      if (!status.value) { return true; }
      if (engine.value) {
        var cell = row.querySelector("td[data-engine='" + engine.value + "']");
        return !!cell && cell.getAttribute("data-status") === status.value;
      }
      return Array.prototype.some.call(row.querySelectorAll("td"), function (td) { return td.getAttribute("data-status") === status.value; });
    }

    function apply() {
      var shown = 0;
      each(scroll, "tbody", function (group) {
        var visible = 0;
        var inCategory = !category.value || group.getAttribute("data-category") === category.value;
        each(group, "tr[data-feature]", function (row) {
          var ok = inCategory && cellMatches(row);
          row.hidden = !ok;
          if (ok) { visible += 1; }
        });
        group.closest("[data-di-group]").hidden = visible === 0;
        shown += visible;
      });
      count.textContent = shown + " features shown";
      if (measureHead) { measureHead(); }
      setParams({category: category.value, engine: engine.value, status: status.value});
    }

    var measureHead = null;  // set once the sticky head exists; the filters change column widths
    var original = null;
    // The first table's head sorts every category's rows; every table's head says so.
    function sortBy(column, header) {
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      each(scroll, "thead th", function (th) {
        th.setAttribute("aria-sort", th.cellIndex !== column ? "none" : ascending ? "ascending" : "descending");
      });
      each(scroll, "tbody", function (group) {
        var rows = Array.prototype.slice.call(group.querySelectorAll("tr[data-feature]"));
        rows.sort(function (a, b) {
          var x, y;
          if (column === 0) {
            x = a.children[0].textContent.trim().toLowerCase(); y = b.children[0].textContent.trim().toLowerCase();
          } else {
            x = rankOf(a.children[column].getAttribute("data-status"));
            y = rankOf(b.children[column].getAttribute("data-status"));
          }
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { group.appendChild(row); });
      });
    }
    function resetOrder() {
      each(scroll, "thead th", function (th) { th.setAttribute("aria-sort", "none"); });
      original.forEach(function (pair) { pair[0].appendChild(pair[1]); });
    }
    original = Array.prototype.map.call(scroll.querySelectorAll("tr[data-feature]"), function (row) { return [row.parentNode, row]; });

    [category, engine, status].forEach(function (select) { select.addEventListener("change", apply); });
    form.addEventListener("reset", function () { setTimeout(function () { resetOrder(); apply(); }, 0); });
    each(scroll, "[data-di-sort]", function (button) {
      button.addEventListener("click", function () { sortBy(Number(button.getAttribute("data-di-sort")), button.parentNode); });
    });
    measureHead = keepHeaderInView(scroll, table);
    // On a phone the rows become cards: each cell is labelled with its engine.
    var names = Array.prototype.map.call(table.tHead.rows[0].cells, function (c) { return c.textContent.trim(); });
    each(scroll, "tr[data-feature]", function (row) {
      Array.prototype.forEach.call(row.cells, function (cell, i) { if (i) { cell.setAttribute("data-label", names[i]); } });
    });
    apply();
  }

  // The matrix scrolls sideways in its own box; its header row is copied into a bar that sticks
  // to the top of the window and follows the box's horizontal scroll. No inner vertical scroll.
  function keepHeaderInView(scroll, table) {
    var bar = el("div", null, "di-sticky-head");
    bar.setAttribute("aria-hidden", "true");
    var clone = el("table", null, table.className);
    var head = null;
    function copyHead() {
      if (head) { head.remove(); }
      head = table.tHead.cloneNode(true);
      each(head, "[id]", function (node) { node.removeAttribute("id"); });
      each(head, "[aria-sort]", function (node) { node.setAttribute("data-sort", node.getAttribute("aria-sort")); node.removeAttribute("aria-sort"); });
      each(head, "button", function (button) { button.tabIndex = -1; button.removeAttribute("data-di-sort"); button.setAttribute("data-di-proxy", ""); });
      clone.appendChild(head);
    }
    copyHead();
    bar.appendChild(clone);
    scroll.parentNode.insertBefore(bar, scroll);
    new MutationObserver(function () { copyHead(); measure(); }).observe(table.tHead, {attributes: true, subtree: true, attributeFilter: ["aria-sort"]});
    // Column widths come from the first category table in view (the filters may hide the first);
    // they change with the window and the filters, never with scrolling.
    function measure() {
      var shown = scroll.querySelector("[data-di-group]:not([hidden]) table");
      if (!shown) { return; }
      clone.style.width = shown.offsetWidth + "px";
      var widths = Array.prototype.map.call(shown.tHead.rows[0].cells, function (c) { return c.getBoundingClientRect().width; });
      Array.prototype.forEach.call(head.rows[0].cells, function (c, i) { c.style.width = widths[i] + "px"; c.style.minWidth = widths[i] + "px"; });
      sync();
    }
    function sync() {
      bar.scrollLeft = scroll.scrollLeft;
      var box = scroll.getBoundingClientRect();
      bar.classList.toggle("di-sticky-head--on", box.top < 0 && box.bottom > 40);
    }
    scroll.addEventListener("scroll", function () { bar.scrollLeft = scroll.scrollLeft; });
    bar.addEventListener("click", function (event) {
      var cell = event.target.closest("th");
      if (cell) { table.tHead.rows[0].cells[cell.cellIndex].querySelector("button").click(); }
    });
    window.addEventListener("scroll", sync, {passive: true});
    window.addEventListener("resize", measure);
    measure();
    return measure;
  }

  // --- Comparison ---------------------------------------------------------------------------
  function setUpCompare(compare) {
    var diffOnly = compare.querySelector("[data-di-diff-only]");
    var hideUnknown = compare.querySelector("[data-di-hide-unknown]");
    var jump = compare.querySelector("[data-di-jump]");
    var count = compare.querySelector("[data-di-count]");
    var rows = compare.querySelectorAll("tr.di-row");
    var p = params();
    diffOnly.checked = p.get("diff") === "1";
    hideUnknown.checked = p.get("known") === "1";
    function apply() {
      var shown = 0;
      Array.prototype.forEach.call(rows, function (row) {
        var hide = (diffOnly.checked && !row.classList.contains("di-differs")) ||
                   (hideUnknown.checked && row.classList.contains("di-undocumented"));
        row.hidden = hide;
        if (!hide) { shown += 1; }
      });
      each(compare, ".di-compare-category", function (section) {
        section.hidden = !section.querySelector("tr.di-row:not([hidden])");
      });
      var differing = compare.querySelectorAll("tr.di-differs").length;
      count.textContent = shown + " of " + rows.length + " features shown; " + differing + " differ";
      setParams({diff: diffOnly.checked ? "1" : null, known: hideUnknown.checked ? "1" : null});
    }
    diffOnly.addEventListener("change", apply);
    hideUnknown.addEventListener("change", apply);
    jump.addEventListener("change", function () {
      var target = jump.value && document.getElementById(jump.value);
      if (target) { target.scrollIntoView({block: "start"}); target.setAttribute("tabindex", "-1"); target.focus({preventScroll: true}); }
      jump.value = "";
    });
    apply();
  }

  // --- Decision guide: result in view, selection in the address --------------------------
  function setUpGuide(guide) {
    var data = JSON.parse(document.getElementById("di-guide-data").textContent);
    var form = guide.querySelector("[data-di-needs]");
    var results = guide.querySelector("[data-di-results]");
    var root = guide.getAttribute("data-root") || "../";
    var wanted = (params().get("needs") || "").split(",").filter(function (id) { return lookup(data.verdicts, id) !== undefined; });
    each(form, "input[name=need]", function (box) { box.checked = wanted.indexOf(box.value) >= 0; });

    var TIER_ORDER = ["fits", "limits", "plugin", "no"];
    var worst = function (tiers) { return tiers.reduce(function (w, t) { return TIER_ORDER.indexOf(t) > TIER_ORDER.indexOf(w) ? t : w; }, "fits"); };
    var featureLink = function (feature, engine) {
      var link = el("a", lookup(data.features, feature));
      link.href = root + "features/" + feature + "/#" + feature + "--" + engine;
      return link;
    };
    // A need met only on hardware that none of the ticked hardware needs names
    function scopeClashes(engine, ticked) {
      var lines = [];
      ticked.filter(function (n) { return lookup(data.hardware_needs, n) !== undefined; }).forEach(function (hw) {
        var have = data.verdicts[hw][engine].checks.filter(function (c) { return c[2]; }).map(function (c) { return c[0]; });
        if (!have.length) { return; }
        ticked.filter(function (n) { return lookup(data.hardware_needs, n) === undefined; }).forEach(function (need) {
          data.verdicts[need][engine].checks.forEach(function (c) {
            if (c[2] && c[6].length && !c[6].some(function (h) { return have.indexOf(h) >= 0; })) {
              lines.push([c[0], c[6], hw]);
            }
          });
        });
      });
      return lines;
    }

    function update() {
      var ticked = Array.prototype.map.call(form.querySelectorAll("input[name=need]:checked"), function (i) { return i.value; });
      setParams({needs: ticked.join(",")});
      results.textContent = "";
      if (!ticked.length) {
        results.appendChild(el("p", "Tick one or more needs to see which engines fit. The selection goes into the address, so you can paste it into a wiki."));
        return;
      }
      var engines = Object.keys(data.engines).map(function (engine) {
        var tiers = ticked.map(function (need) { return data.verdicts[need][engine].tier; });
        var clashes = scopeClashes(engine, ticked);
        var tier = worst(tiers);
        if (clashes.length && tier === "fits") { tier = "limits"; }
        return {id: engine, tier: tier, clashes: clashes, met: tiers.filter(function (t) { return t !== "no"; }).length};
      });
      engines.sort(function (a, b) { return TIER_ORDER.indexOf(a.tier) - TIER_ORDER.indexOf(b.tier) || b.met - a.met; });
      results.appendChild(el("h2", "Which engines fit", "di-results__title"));
      var list = el("ul", null, "di-fits");
      engines.forEach(function (engine) {
        var item = el("li");
        item.setAttribute("data-engine", engine.id);
        item.setAttribute("data-tier", engine.tier);
        item.setAttribute("data-fits", engine.tier === "no" ? "false" : "true");
        var name = el("a", data.engines[engine.id]);
        name.href = root + "engines/" + engine.id + "/";
        var head = el("strong");
        head.appendChild(name);
        head.appendChild(document.createTextNode(": " + (engine.tier === "no" ? "meets " + engine.met + " of " + ticked.length : lookup(data.tiers, engine.tier))));
        item.appendChild(head);
        var notes = el("ul");
        ticked.forEach(function (need) {
          var v = data.verdicts[need][engine.id];
          v.checks.forEach(function (c) {
            var line = null;
            if (!c[2] && !v.met) {
              line = el("li", lookup(data.needs, need) + ": ");
              line.appendChild(featureLink(c[0], engine.id));
              line.appendChild(el("b", " " + c[5], "di-st--" + c[1]));
            } else if (c[2] && c[3] !== "fits") {
              line = el("li", lookup(data.needs, need) + ": " + lookup(data.tiers, c[3]) + ", ");
              line.appendChild(featureLink(c[0], engine.id));
              line.appendChild(el("b", " " + lookup(data.statuses, c[1]) + (c[4] ? ": " + c[4] : ""), "di-st--" + c[1]));
            }
            if (line) { notes.appendChild(line); }
          });
        });
        engine.clashes.forEach(function (clash) {
          var line = el("li", lookup(data.features, clash[0]) + " is documented on " +
            clash[1].map(function (h) { return lookup(data.features, h); }).join(", ") + ", not on " +
            lookup(data.hardware_needs, clash[2]).map(function (h) { return lookup(data.features, h); }).join(" or "));
          line.className = "di-clash";
          notes.appendChild(line);
        });
        if (notes.children.length) { item.appendChild(notes); }
        list.appendChild(item);
      });
      results.appendChild(list);
      var fitting = engines.filter(function (e) { return e.tier !== "no"; }).slice(0, 3).map(function (e) { return e.id; });
      if (fitting.length >= 2) {
        var compare = el("p", "Compare the fitting engines: ");
        for (var x = 0; x < fitting.length; x++) {
          for (var y = x + 1; y < fitting.length; y++) {
            if (compare.children.length) { compare.appendChild(document.createTextNode(" · ")); }
            var pair = [fitting[x], fitting[y]].sort();
            var link = el("a", data.engines[fitting[x]] + " vs " + data.engines[fitting[y]]);
            link.href = root + "compare/" + pair[0] + "-vs-" + pair[1] + "/";
            compare.appendChild(link);
          }
        }
        results.appendChild(compare);
      }
    }
    form.addEventListener("change", update);
    update();
  }

  // --- Cells: wiki snippets and "report a problem", built from the page's own headers ------
  function cellContext(details) {
    var cell = details.closest("td");
    var row = details.closest("tr");
    var table = details.closest("table");
    var header = row && row.querySelector("th");
    var columnHead = table && table.tHead ? table.tHead.rows[0].cells[cell.cellIndex] : null;
    var feature = header ? header.textContent.replace(/\s*differs$/, "").replace(/#$/, "").trim() : "";
    var engine = cell ? (cell.getAttribute("data-label") || (columnHead ? columnHead.textContent.trim() : "")) : "";
    if (table && table.classList.contains("di-feature-table")) { engine = header.textContent.trim(); feature = document.querySelector("h1").textContent.trim(); }
    var badge = details.querySelector("summary [class^='di-st--']");
    var value = details.querySelector("summary .di-value");
    var url = window.location.href.split("#")[0].split("?")[0] + (cell && cell.id ? "#" + cell.id : row && row.id ? "#" + row.id : "");
    return {engine: engine, feature: feature, status: badge ? badge.textContent : "",
            value: value ? value.textContent : "", url: url};
  }

  // Each markup's own escaping: the text is data, and must stay text in the wiki too. Addresses
  // lose every character a markup could read as its own syntax.
  function safeUrl(url) {
    return url.replace(/[\s()\[\]|<>{}'"`*_\\^]/g, function (ch) {
      return "%" + ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0");
    });
  }
  function line(c) { return c.engine + ", " + c.feature + ": " + c.status + (c.value ? " (" + c.value + ")" : ""); }
  function markdownText(text) { return text.replace(/([\\`*_{}\[\]()#+\-.!|<>~])/g, "\\$1"); }
  var SNIPPETS = {
    "Markdown": function (c) {
      return "[" + markdownText(line(c)) + "](" + safeUrl(c.url) + ")";
    },
    "Confluence": function (c) {
      return "[" + line(c).replace(/([\\\[\]{}|*_+\-^~?!#])/g, "\\$1") + "|" + safeUrl(c.url) + "]";
    },
    "MediaWiki": function (c) {
      var entities = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "&#91;", "]": "&#93;", "|": "&#124;", "{": "&#123;",
                      "}": "&#125;", "'": "&#39;", "~": "&#126;"};
      return "[" + safeUrl(c.url) + " " + line(c).replace(/[&<>\[\]|{}'~]/g, function (ch) { return entities[ch]; }) + "]";
    }
  };

  window.diSnippets = SNIPPETS;  // the browser tests feed them hostile names

  function reportUrl(container, c) {
    var repo = container.getAttribute("data-repo");
    if (!repo) { return ""; }
    var title = c.engine + " / " + c.feature + ": ";
    if (container.getAttribute("data-repo-host") === "gitlab") {
      return repo + "/-/issues/new?" + new URLSearchParams({"issue[title]": title, "issue[description]": "Cell: " + c.url}).toString();
    }
    return repo + "/issues/new?" + new URLSearchParams({template: "wrong-cell.yml", title: title, link: c.url}).toString();
  }

  // Each statement has a badge (badges/<engine>/<feature>.svg, macros/site/outputs/badges.py), found
  // from the cell's id, <feature>--<engine> (ids are kebab-case, so "--" only ever splits them), and
  // from where this script sits (assets/site.js, one folder below the site's root).
  var SITE_ROOT = new URL("../", (document.currentScript && document.currentScript.src) || window.location.href).href;
  function badgeOf(cell) {
    var id = cell ? cell.id || (cell.closest("tr") || {}).id || "" : "";  // a feature page names its rows
    var parts = id.split("--");
    if (parts.length !== 2) { return ""; }
    return SITE_ROOT + "badges/" + encodeURIComponent(parts[1]) + "/" + encodeURIComponent(parts[0]) + ".svg";
  }
  function htmlText(text) {
    return text.replace(/[&<>"']/g, function (ch) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[ch]; });
  }
  var BADGE_SNIPPETS = {
    "Markdown": function (c, image) {
      return "[![" + markdownText(line(c)) + "](" + safeUrl(image) + ")](" + safeUrl(c.url) + ")";
    },
    "HTML": function (c, image) {
      return '<a href="' + htmlText(c.url) + '"><img src="' + htmlText(image) + '" alt="' + htmlText(line(c)) + '"></a>';
    }
  };
  window.diBadgeSnippets = BADGE_SNIPPETS;

  // "Copy badge": the badge as it will look, and the Markdown and HTML that show it, each with a copy button.
  function badgePanel(details, c, image) {
    var toggle = el("button", "Copy badge", "di-snippet di-badge-toggle");
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", "false");
    var panel = el("div", null, "di-badge-panel");
    panel.hidden = true;
    var preview = el("img", null, "di-badge-preview");
    preview.alt = line(c);
    preview.setAttribute("data-src", image);
    panel.appendChild(preview);
    Object.keys(BADGE_SNIPPETS).forEach(function (name) {
      var text = BADGE_SNIPPETS[name](c, image);
      var row = el("p", null, "di-badge-code");
      var code = el("code", text);
      var copy = el("button", "Copy " + name, "di-snippet");
      copy.type = "button";
      copy.setAttribute("data-snippet", text);
      copy.addEventListener("click", function () {
        if (navigator.clipboard) { navigator.clipboard.writeText(text).then(function () { flash(copy, "Copied"); }); }
      });
      row.appendChild(copy);
      row.appendChild(document.createTextNode(" "));
      row.appendChild(code);
      panel.appendChild(row);
    });
    toggle.addEventListener("click", function () {
      panel.hidden = !panel.hidden;
      toggle.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
      if (!panel.hidden && !preview.src) { preview.src = preview.getAttribute("data-src"); }  // fetched only when asked for
    });
    return [toggle, panel];
  }

  function setUpCells(container) {
    container.addEventListener("toggle", function (event) {
      var details = event.target;
      if (!details.matches || !details.matches("td > details") || !details.open || details.hasAttribute("data-di-ready")) { return; }
      details.setAttribute("data-di-ready", "");
      var c = cellContext(details);
      var meta = details.querySelector("div > p:last-child");
      var report = reportUrl(container, c);
      if (report) {
        meta.appendChild(document.createTextNode(" · "));
        var link = el("a", "Report a problem", "di-report");
        link.href = report;
        meta.appendChild(link);
      }
      meta.appendChild(document.createTextNode(" · Copy for "));
      Object.keys(SNIPPETS).forEach(function (name, i) {
        if (i) { meta.appendChild(document.createTextNode(", ")); }
        var button = el("button", name, "di-snippet");
        button.type = "button";
        button.addEventListener("click", function () {
          var text = SNIPPETS[name](c);
          if (navigator.clipboard) { navigator.clipboard.writeText(text).then(function () { flash(button, "Copied"); }); }
          button.setAttribute("data-snippet", text);
        });
        meta.appendChild(button);
      });
      var image = badgeOf(details.closest("td"));
      if (image) {
        var parts = badgePanel(details, c, image);
        meta.appendChild(document.createTextNode(" · "));
        meta.appendChild(parts[0]);
        meta.after(parts[1]);
      }
    }, true);
  }

  function flash(after, message) {
    var note = el("span", message, "di-copied");
    note.setAttribute("role", "status");
    after.after(note);
    setTimeout(function () { note.remove(); }, 1500);
  }

  // --- Deep links land visibly: open the detail that holds the target, and mark it --------
  function showTarget() {
    var id = fragmentId();
    var target = id && document.getElementById(id);
    if (!target) { return; }
    var details = target.querySelector("td > details") || target.closest("details");
    if (details) { details.open = true; }
    each(document, ".di-targeted", function (node) { node.classList.remove("di-targeted"); });
    target.classList.add("di-targeted");
    var row = target.closest("tr");
    if (row && row !== target) { row.classList.add("di-targeted"); }
  }

  // --- Copy a link to a row or cell ---------------------------------------------------------
  function setUpCopyLinks() {
    document.addEventListener("click", function (event) {
      var anchor = event.target.closest && event.target.closest("a.di-anchor");
      if (!anchor || !navigator.clipboard) { return; }
      event.preventDefault();
      history.replaceState(null, "", anchor.getAttribute("href"));
      showTarget();
      navigator.clipboard.writeText(anchor.href).then(function () { flash(anchor, "Link copied"); },
        function () { window.location.hash = anchor.getAttribute("href"); });
    });
  }

  // --- Compare index: pick any two engines ----------------------------------------------------
  function setUpPicker(form) {
    form.addEventListener("submit", function (event) {
      var a = form.elements.a.value, b = form.elements.b.value;
      event.preventDefault();
      if (a === b) { return; }
      var pair = [a, b].sort();
      window.location.href = form.getAttribute("action").replace(/live\/$/, "") + pair[0] + "-vs-" + pair[1] + "/";
    });
  }

  // --- A comparison of any two engines, put together from rendered fragments ---------------
  // The fragments are HTML the site's own templates rendered (macros/site/outputs/pair_parts.py),
  // the same as a pre-rendered comparison's; only names from the address are looked up, never shown.
  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }
  function setUpLive(box) {
    var status = box.querySelector("[data-di-live-status]");
    var names = JSON.parse(box.getAttribute("data-engines") || "{}");
    var p = params();
    var ids = [p.get("a"), p.get("b")].filter(function (id) { return lookup(names, id) !== undefined; }).sort();
    if (ids.length !== 2 || ids[0] === ids[1]) {
      status.textContent = "Pick two different engines on the compare page.";
      return;
    }
    var slug = ids[0] + "-vs-" + ids[1];
    if (box.hasAttribute("data-every-pair-has-a-page")) {  // this pair has its own page
      window.location.replace(box.getAttribute("data-pages") + slug + "/" + window.location.hash);
      return;
    }
    var base = box.getAttribute("data-parts");
    var get = function (name) { return fetch(base + name + ".json").then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); }); };
    Promise.all([get(slug), get(ids[0]), get(ids[1])]).then(function (parts) {
      var pair = parts[0], left = parts[1], right = parts[2];
      var compare = box.querySelector("[data-di-live-compare]");
      compare.setAttribute("data-a", ids[0]);
      compare.setAttribute("data-b", ids[1]);
      compare.setAttribute("data-di-compare", "");
      each(compare, "[data-di-live-part]", function (slot) {
        slot.replaceWith(fragment(pair[slot.getAttribute("data-di-live-part")]));
      });
      each(compare, "th[data-di-side]", function (th) { th.textContent = th.getAttribute("data-di-side") === "a" ? left.name : right.name; th.removeAttribute("data-di-side"); });
      each(compare, "tr.di-row[id]", function (row) {
        var feature = row.id;
        row.className = lookup(pair.rows, feature) || "di-row";
        each(row, "td[data-di-side]", function (td) {
          var side = td.getAttribute("data-di-side"), engine = side === "a" ? ids[0] : ids[1];
          td.id = feature + "--" + engine;
          td.setAttribute("data-label", (side === "a" ? left : right).name);
          td.removeAttribute("data-di-side");
          td.appendChild(fragment(lookup((side === "a" ? left : right).cells, feature) || ""));
        });
      });
      document.title = pair.title;
      var heading = document.querySelector("h1");
      if (heading) { heading.textContent = pair.title; }
      status.remove();
      compare.hidden = false;
      setUpCompare(compare);  // cells were set up at load: the listener on the box sees the new ones too
      showTarget();
      var target = fragmentId() && document.getElementById(fragmentId());
      if (target) { target.scrollIntoView(); }
    }).catch(function () {
      status.textContent = "The comparison could not be drawn here: open the two engines' pages instead.";
    });
  }

  // On a phone a toolbar is one control: a button that opens the filters, beside the count they
  // give. The toolbar sticks to the top, so closed it takes one line of the screen, not four.
  function collapseToolbar(toolbar) {
    var toggle = el("button", "Filters", "di-toolbar__toggle");
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", "false");
    toggle.addEventListener("click", function () {
      var open = toolbar.classList.toggle("di-toolbar--open");
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
    });
    toolbar.classList.add("di-toolbar--collapsible");
    toolbar.insertBefore(toggle, toolbar.firstChild);
  }

  // A table wider than its box scrolls sideways; while columns are hidden past the right edge, the
  // box shows a shadow there and a line under it says so, so no engine is out of view unannounced.
  function cueOverflow(box) {
    var cue = el("p", "Scroll sideways for more columns \u2192", "di-scroll-cue");
    cue.setAttribute("aria-hidden", "true");
    box.after(cue);
    function update() { box.classList.toggle("di-scroll--more", box.scrollLeft + box.clientWidth < box.scrollWidth - 1); }
    box.addEventListener("scroll", update, {passive: true});
    window.addEventListener("resize", update);
    update();
  }

  // A button that opens Material's search (the 404 page's): its toggle is a checkbox the theme watches.
  function setUpSearchButtons() {
    each(document, "[data-di-open-search]", function (button) {
      button.addEventListener("click", function () {
        var toggle = document.getElementById("__search");
        if (!toggle) { return; }
        toggle.checked = true;
        toggle.dispatchEvent(new Event("change"));
        var input = document.querySelector(".md-search__input");
        if (input) { input.focus(); }
      });
    });
  }

  // Material's search overlay is a dialog without a name; screen readers need one.
  function nameTheSearchDialog() {
    each(document, ".md-search[role=dialog]:not([aria-label])", function (dialog) { dialog.setAttribute("aria-label", "Search"); });
  }

  // content-visibility lets the first layout skip the long sections out of view (those the templates
  // mark data-di-lazy: site.css). Once the page is loaded, lay them out
  // one per idle moment: no long task, and tools that measure the whole page (an accessibility
  // checker's target sizes, find-in-page) see every box where it is, not a placeholder.
  function layOutSkippedSections() {
    var sections = Array.prototype.slice.call(document.querySelectorAll("[data-di-lazy]"));
    var later = window.requestIdleCallback || function (next) { return setTimeout(next, 50); };
    function next() {
      var section = sections.shift();
      if (!section) { return; }
      section.style.contentVisibility = "visible";
      later(next);
    }
    if (sections.length) { later(next); }
  }

  function init() {
    nameTheSearchDialog();
    each(document, "[data-di-matrix]", setUpMatrix);
    each(document, "[data-di-compare]", setUpCompare);
    each(document, "[data-di-guide]", setUpGuide);
    each(document, "[data-di-picker]", setUpPicker);
    each(document, "[data-di-live]", setUpLive);
    each(document, ".di-compare, .di-feature, .di-engine", setUpCells);
    each(document, ".di-scroll, .di-wide", cueOverflow);
    each(document, ".di-toolbar", collapseToolbar);
    setUpCopyLinks();
    setUpSearchButtons();
    showTarget();
    window.addEventListener("hashchange", showTarget);
    if (document.readyState === "complete") { layOutSkippedSections(); } else { window.addEventListener("load", layOutSkippedSections); }
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
