// Progressive enhancement for the data tables. Without JavaScript every row shows.
(function () {
  "use strict";

  function each(root, selector, fn) { Array.prototype.forEach.call(root.querySelectorAll(selector), fn); }

  function statusOf(cell) { return cell.getAttribute("data-status") || ""; }

  // --- Feature matrix: filter by category and status, sort by any column -----------
  function setUpMatrix(matrix) {
    var controls = matrix.querySelector("[data-di-controls]");
    var category = matrix.querySelector("[data-di-filter-category]");
    var status = matrix.querySelector("[data-di-filter-status]");
    var count = matrix.querySelector("[data-di-count]");
    var table = matrix.querySelector("table");

    function apply() {
      var shown = 0;
      each(table, "tbody", function (group) {
        var groupVisible = 0;
        var inCategory = !category.value || group.getAttribute("data-category") === category.value;
        each(group, "tr[data-feature]", function (row) {
          var matches = inCategory && (!status.value ||
            Array.prototype.some.call(row.querySelectorAll("td"), function (td) { return statusOf(td) === status.value; }));
          row.hidden = !matches;
          if (matches) { groupVisible += 1; }
        });
        group.hidden = groupVisible === 0;
        shown += groupVisible;
      });
      count.textContent = shown + " features shown";
    }

    function sortBy(column, header) {
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      each(table, "thead th", function (th) { th.setAttribute("aria-sort", "none"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      each(table, "tbody", function (group) {
        var rows = Array.prototype.slice.call(group.querySelectorAll("tr[data-feature]"));
        rows.sort(function (a, b) {
          var x = a.children[column].textContent.trim().toLowerCase();
          var y = b.children[column].textContent.trim().toLowerCase();
          return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
        });
        rows.forEach(function (row) { group.appendChild(row); });
      });
    }

    category.addEventListener("change", apply);
    status.addEventListener("change", apply);
    each(table, "[data-di-sort]", function (button) {
      button.addEventListener("click", function () {
        sortBy(Number(button.getAttribute("data-di-sort")), button.parentNode);
      });
    });
    apply();
  }

  // --- Comparison: show differences only ------------------------------------------
  function setUpCompare(compare) {
    var controls = compare.querySelector("[data-di-controls]");
    var box = compare.querySelector("[data-di-diff-only]");
    var count = compare.querySelector("[data-di-count]");
    var differing = compare.querySelectorAll("tr[data-differs='true']").length;
    each(compare, ".di-compare-category", function (section) {
      if (!section.querySelector("tr[data-differs='true']")) { section.classList.add("di-all-same"); }
    });
    function apply() {
      compare.classList.toggle("di-diff-only", box.checked);
      count.textContent = differing + " of " + compare.querySelectorAll("tr[data-differs]").length + " features differ";
    }
    box.addEventListener("change", apply);
    apply();
  }

  // --- Decision guide: combine the precomputed verdicts for the ticked needs ---------
  function setUpGuide(guide) {
    var data = JSON.parse(document.getElementById("di-guide-data").textContent);
    var form = guide.querySelector("[data-di-controls]");
    var results = guide.querySelector("[data-di-results]");

    function text(tag, content) { var el = document.createElement(tag); el.textContent = content; return el; }

    function update() {
      var ticked = Array.prototype.map.call(form.querySelectorAll("input[name=need]:checked"), function (i) { return i.value; });
      results.textContent = "";
      if (!ticked.length) {
        results.appendChild(text("p", "Tick one or more needs to see which engines fit."));
        return;
      }
      var list = document.createElement("ul");
      Object.keys(data.engines).forEach(function (engine) {
        var missed = ticked.filter(function (need) { return !data.verdicts[need][engine].met; });
        var item = document.createElement("li");
        item.setAttribute("data-engine", engine);
        item.setAttribute("data-fits", missed.length ? "false" : "true");
        item.appendChild(text("strong", data.engines[engine] + ": " + (missed.length ? "does not fit" : "fits")));
        if (missed.length) {
          var reasons = document.createElement("ul");
          missed.forEach(function (need) {
            var lacking = data.verdicts[need][engine].checks.filter(function (c) { return !c[2]; }).map(function (c) {
              return data.features[c[0]] + " (" + data.statuses[c[1]] + ")";
            });
            reasons.appendChild(text("li", data.needs[need] + ": lacks " + lacking.join(", ")));
          });
          item.appendChild(reasons);
        }
        list.appendChild(item);
      });
      results.appendChild(list);
    }
    form.addEventListener("change", update);
    update();
  }

  // --- Copy a link to a row or cell -----------------------------------------------
  function setUpCopyLinks() {
    each(document, "a.di-anchor", function (anchor) {
      anchor.addEventListener("click", function (event) {
        if (!navigator.clipboard) { return; }
        event.preventDefault();
        var url = anchor.href;
        history.replaceState(null, "", anchor.getAttribute("href"));
        navigator.clipboard.writeText(url).then(function () {
          var note = document.createElement("span");
          note.className = "di-copied";
          note.setAttribute("role", "status");
          note.textContent = "Link copied";
          anchor.after(note);
          setTimeout(function () { note.remove(); }, 1500);
        }, function () { window.location.hash = anchor.getAttribute("href"); });
      });
    });
  }

  // Material's search overlay is a dialog without a name; screen readers need one.
  function nameTheSearchDialog() {
    each(document, ".md-search[role=dialog]:not([aria-label])", function (dialog) { dialog.setAttribute("aria-label", "Search"); });
  }

  function init() {
    nameTheSearchDialog();
    each(document, "[data-di-matrix]", setUpMatrix);
    each(document, "[data-di-compare]", setUpCompare);
    each(document, "[data-di-guide]", setUpGuide);
    setUpCopyLinks();
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
