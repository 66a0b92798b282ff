import Foundation

/// The site's style sheet and its one script, files of the site (`style.css`,
/// `filter.js`), so that pages load nothing from elsewhere: system fonts, no web font,
/// light and dark schemes (`prefers-color-scheme`), a layout that reads at 320 px, and
/// print rules.
enum HTMLStyle {
    static let styleSheetName = "style.css"
    static let scriptName = "filter.js"

    static let styleSheet = """
        :root {
          color-scheme: light dark;
          --text: #1d2125; --muted: #5b6670; --background: #ffffff; --surface: #f4f6f8;
          --line: #d5dbe1; --accent: #0b5cad; --good: #1a7f37; --bad: #b42318; --warn: #9a6700;
          --lane: #8a96a3;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --text: #e6e9ec; --muted: #9aa5b1; --background: #15181b; --surface: #1f2428;
            --line: #39414a; --accent: #6cb6ff; --good: #57c46b; --bad: #ff7b72; --warn: #d8a533;
            --lane: #6b7785;
          }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; color: var(--text); background: var(--background);
          font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
          overflow-wrap: anywhere;
        }
        a { color: var(--accent); }
        code, pre, .graph, .digest { font-family: ui-monospace, "SF Mono", "DejaVu Sans Mono", Menlo, monospace; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: 1rem; background: var(--background); padding: .25rem .5rem; }
        header.site {
          display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; align-items: baseline;
          padding: .75rem max(1rem, calc((100% - 72rem) / 2)); border-bottom: 1px solid var(--line);
          background: var(--surface);
        }
        header.site .home { font-weight: 700; color: var(--text); text-decoration: none; }
        header.site nav ul {
          display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; list-style: none;
        }
        header.site nav a[aria-current] { color: var(--text); font-weight: 600; text-decoration: none; }
        main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
        footer.site {
          max-width: 72rem; margin: 2rem auto 0; padding: 1rem; color: var(--muted); font-size: .875rem;
          border-top: 1px solid var(--line);
        }
        h1 { font-size: 1.75rem; line-height: 1.25; margin: .5rem 0 1rem; }
        h2 { font-size: 1.3rem; margin: 2rem 0 .75rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
        h3 { font-size: 1.05rem; margin: 0 0 .25rem; }
        .lead { font-size: 1.1rem; white-space: pre-wrap; }
        .note { background: var(--surface); border-left: 4px solid var(--warn); padding: .5rem .75rem; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; }
        .badge {
          display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; line-height: 1.5rem;
          border: 1px solid var(--line); background: var(--surface); white-space: nowrap;
        }
        .status-done { color: var(--good); border-color: currentColor; }
        .status-inProgress { color: var(--accent); border-color: currentColor; }
        .priority-high, .priority-urgent { color: var(--bad); border-color: currentColor; }
        .signature-signed { color: var(--good); border-color: currentColor; }
        .signature-invalid, .altered { color: var(--bad); border-color: currentColor; }
        .signature-untrusted { color: var(--warn); border-color: currentColor; }
        .board { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: .75rem; }
        .column { background: var(--surface); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem; }
        .column h3 { display: flex; justify-content: space-between; gap: .5rem; }
        .column ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .4rem; }
        .card {
          background: var(--background); border: 1px solid var(--line); border-radius: .375rem; padding: .35rem .5rem;
        }
        .card .badge { margin-top: .2rem; }
        ol.items { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
        ol.items > li { border: 1px solid var(--line); border-radius: .5rem; padding: .6rem .75rem; }
        ol.items > li:target { outline: 3px solid var(--accent); }
        .task .meta { display: flex; flex-wrap: wrap; gap: .3rem; margin: .2rem 0; }
        .task .notes, .draft .text, .message { white-space: pre-wrap; margin: .3rem 0; }
        .relations { margin: .3rem 0 0; font-size: .9rem; }
        .relations dt { color: var(--muted); display: inline; }
        .relations dd { display: inline; margin: 0 .75rem 0 .25rem; }
        .muted, small { color: var(--muted); }
        figure.blob { margin: .5rem 0; display: inline-block; max-width: 100%; }
        figure.blob img {
          display: block; max-width: min(100%, 24rem); max-height: 18rem; height: auto;
          border: 1px solid var(--line); border-radius: .25rem; background: var(--surface);
        }
        figure.blob figcaption { font-size: .875rem; }
        .blob.file { display: inline-block; margin: .15rem 0; }
        .pager { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: baseline; margin: .75rem 0; }
        .pager ol { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
        .pager a, .pager [aria-current] {
          display: inline-block; min-width: 2rem; padding: .1rem .4rem; text-align: center;
        }
        .pager [aria-current] { font-weight: 700; border: 1px solid var(--line); border-radius: .25rem; }
        .filter { margin: .5rem 0; }
        .filter input { width: min(100%, 24rem); padding: .35rem .5rem; font: inherit; color: inherit;
          background: var(--background); border: 1px solid var(--line); border-radius: .25rem; }
        .table { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
        td.value { font-family: ui-monospace, "DejaVu Sans Mono", monospace; max-width: 28rem; }
        .kind-added { color: var(--good); }
        .kind-removed { color: var(--bad); }
        ol.timeline { list-style: none; margin: 0; padding: 0; }
        ol.timeline .line { display: flex; gap: .75rem; height: 1.75rem; line-height: 1.75rem; overflow: hidden; }
        ol.timeline .badge { line-height: 1.25rem; }
        ol.timeline .message { margin: 0; white-space: nowrap; }
        ol.timeline .line > :not(.graph) {
          min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
        }
        .graph { flex: none; color: var(--lane); white-space: pre; font-size: 1.5rem; height: 1.75rem;
          line-height: 1.75rem; font-family: "DejaVu Sans Mono", ui-monospace, Menlo, monospace; }
        .graph strong { color: var(--accent); }
        .verification { background: var(--surface); border-left: 4px solid var(--good); padding: .25rem .75rem; }
        .verification.altered { border-left-color: var(--bad); }
        details.tree { margin: .1rem 0; }
        details.tree > summary { cursor: pointer; }
        ul.tree { list-style: none; margin: 0; padding-left: 1.25rem; border-left: 1px dotted var(--line); }
        .key { font-weight: 600; }
        .string { white-space: pre-wrap; }
        .number, .literal { font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
        .digest { font-size: .85rem; }
        @media (max-width: 30rem) {
          body { font-size: 15px; }
          main { padding: .75rem; }
          .facts { grid-template-columns: 1fr; }
          .facts dd { margin-bottom: .4rem; }
        }
        @media print {
          :root { --text: #000; --muted: #444; --background: #fff; --surface: #fff; --line: #999; --accent: #000; }
          header.site nav, .skip, .filter, .pager { display: none; }
          body { font-size: 11pt; }
          main, footer.site { max-width: none; padding: 0; }
          a { text-decoration: none; }
          ol.items > li, .column, .card, figure.blob { break-inside: avoid; }
          .board { grid-template-columns: repeat(3, 1fr); }
        }

        """

    /// Progressive enhancement: a field that filters a long list on the page. Without
    /// scripts the list is all there; the script reports nothing to the console.
    static let script = """
        "use strict";
        document.addEventListener("DOMContentLoaded", function () {
          var lists = document.querySelectorAll("ol.items[data-filter]");
          Array.prototype.forEach.call(lists, function (list) {
            var label = document.createElement("label");
            label.className = "filter";
            var input = document.createElement("input");
            input.type = "search";
            input.placeholder = list.getAttribute("data-filter");
            input.setAttribute("aria-label", list.getAttribute("data-filter"));
            label.appendChild(input);
            list.parentNode.insertBefore(label, list);
            input.addEventListener("input", function () {
              var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
              Array.prototype.forEach.call(list.children, function (item) {
                var text = item.textContent.toLowerCase();
                item.hidden = !words.every(function (word) { return text.indexOf(word) !== -1; });
              });
            });
          });
        });

        """
}
