/// The page's fixed parts: its style, its layout and its script, all inline.
enum HTMLPage {
    static func head(title: String) -> String {
        let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\#(escaped) — lockstep-log</title>
            <style>
            :root { color-scheme: light dark; --line: #8884; --pick: #3478f633; --del: #d73a4933; --ins: #28a74533; }
            * { box-sizing: border-box; }
            body { margin: 0; font: 14px/1.4 system-ui, sans-serif; display: flex; flex-direction: column; height: 100vh; }
            header { padding: 8px 14px; border-bottom: 1px solid var(--line); }
            h1 { font-size: 17px; margin: 0 0 2px; }
            h2 { font-size: 15px; margin: 0 0 6px; }
            h3 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; opacity: .7; margin: 14px 0 4px; }
            #facts { margin: 0 0 6px; opacity: .8; }
            .time { display: flex; gap: 10px; align-items: center; }
            #slider { flex: 1; }
            main { flex: 1; display: flex; min-height: 0; }
            .timeline { flex: 3; overflow: auto; border-right: 1px solid var(--line); }
            .detail { flex: 2; overflow: auto; padding: 10px 14px; }
            table { border-collapse: collapse; width: 100%; font: 12.5px/1.35 ui-monospace, Menlo, monospace; }
            th { position: sticky; top: 0; background: Canvas; text-align: left; font-weight: 600; border-bottom: 1px solid var(--line); }
            th, td { padding: 2px 8px; white-space: nowrap; vertical-align: top; }
            td.seq, td.cause { text-align: right; opacity: .75; }
            td.summary { white-space: normal; }
            tr.row { cursor: pointer; }
            tr.row:hover { background: #8881; }
            tr.selected { background: var(--pick); }
            tr.initial td { opacity: .75; font-style: italic; cursor: pointer; }
            tr.gap td { text-align: center; opacity: .8; background: repeating-linear-gradient(45deg, #8881 0 6px, transparent 6px 12px); }
            .branch { opacity: .5; }
            pre { margin: 0; font: 12.5px/1.35 ui-monospace, Menlo, monospace; white-space: pre-wrap; }
            pre .del { background: var(--del); display: block; }
            pre .ins { background: var(--ins); display: block; }
            .tree { font: 12.5px/1.45 ui-monospace, Menlo, monospace; }
            .tree details, .tree .leaf { margin-left: 1.1em; }
            .tree > details, .tree > .leaf { margin-left: 0; }
            .tree summary { cursor: pointer; }
            .key { color: #8250df; }
            .string { color: #0a7d32; } .number { color: #0550ae; } .boolean, .object { color: #b35900; }
            .changed > summary, .leaf.changed { background: var(--ins); }
            #causes a { text-decoration: none; }
            #causes ul { margin: 2px 0; padding-left: 1.2em; }
            </style>
            </head>
            <body>
            <header>
            <h1>\#(escaped)</h1>
            <p id="facts"></p>
            <div class="time"><label for="slider">Time</label><input type="range" id="slider" min="0" max="0" value="0"><span id="position"></span></div>
            </header>
            <main>
            <section class="timeline">
            <table><thead><tr><th>Seq</th><th>Cause</th><th>Action</th><th>Origin</th><th>State change</th></tr></thead>
            <tbody id="rows"></tbody></table>
            </section>
            <section class="detail">
            <h2 id="step-title"></h2>
            <h3>Causes</h3><div id="causes"></div>
            <h3>Diff</h3><pre id="diff"></pre>
            <h3>Action</h3><div id="action" class="tree"></div>
            <h3>State</h3><div id="state" class="tree"></div>
            </section>
            </main>

            """#
    }

    static let tail = #"""
        <script>
        (function () {
          "use strict";
          const read = (id) => JSON.parse(document.getElementById(id).textContent);
          const meta = read("recording-meta"), steps = read("recording-steps"), end = read("recording-end");
          const $ = (id) => document.getElementById(id);
          const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
          const plural = (n, noun) => n + " " + noun + (n === 1 ? "" : "s");
          const stepOfSeq = new Map(), children = new Map();
          steps.forEach((s, i) => {
            s.step = i + 1;
            if (!stepOfSeq.has(s.seq)) stepOfSeq.set(s.seq, s.step);
            if (s.cause !== null) {
              if (!children.has(s.cause)) children.set(s.cause, []);
              children.get(s.cause).push(s.step);
            }
          });

          // The state at each step: the initial state with each step's changes applied, from a
          // checkpoint kept every 256 steps.
          const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
          function applyStep(state, s) {
            let root = s.before !== undefined ? clone(s.before) : state;
            for (const change of s.changes) {
              const path = change[0];
              if (path.length === 0) { root = change.length > 1 ? clone(change[1]) : null; continue; }
              let parent = root;
              for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]];
              const last = path[path.length - 1];
              if (change.length > 1) parent[last] = clone(change[1]);
              else if (Array.isArray(parent)) parent.splice(last, 1);
              else delete parent[last];
            }
            return root;
          }
          const every = 256, checkpoints = [clone(meta.initialState)];
          function stateAt(n) {
            const k = Math.floor(n / every);
            while (checkpoints.length <= k) {
              const i = checkpoints.length;
              let state = clone(checkpoints[i - 1]);
              for (let j = (i - 1) * every + 1; j <= i * every; j++) state = applyStep(state, steps[j - 1]);
              checkpoints.push(state);
            }
            let state = clone(checkpoints[k]);
            for (let j = k * every + 1; j <= n; j++) state = applyStep(state, steps[j - 1]);
            return state;
          }

          // A step's diff, in swift-custom-dump's format (`lockstep-log show --diff` prints the
          // same): objects as dictionaries with sorted keys, runs of unchanged members folded.
          function equal(a, b) {
            if (a === b) return true;
            if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) !== Array.isArray(b)) return false;
            const keys = Object.keys(a);
            return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal(a[k], b[k]));
          }
          const isContainer = (v) => v !== null && typeof v === "object";
          function dumpLines(value, indent, label, comma) {
            const pad = " ".repeat(indent);
            if (isContainer(value)) {
              const isArray = Array.isArray(value);
              const keys = isArray ? value.map((_, i) => i) : Object.keys(value).sort();
              if (!keys.length) return [pad + label + (isArray ? "[]" : "[:]") + comma];
              const out = [pad + label + "["];
              keys.forEach((k, i) => out.push(...dumpLines(value[k], indent + 2, isArray ? "[" + k + "]: " : JSON.stringify(k) + ": ", i < keys.length - 1 ? "," : "")));
              out.push(pad + "]" + comma);
              return out;
            }
            return [pad + label + (value === null ? "nil" : JSON.stringify(value)) + comma];
          }
          function diffLines(a, b, indent, label, comma, out) {
            if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
              const isArray = Array.isArray(a);
              const keys = isArray ? [...Array(Math.max(a.length, b.length)).keys()] : [...new Set(Object.keys(a).concat(Object.keys(b)))].sort();
              const has = (o, k) => (isArray ? k < o.length : Object.prototype.hasOwnProperty.call(o, k));
              out.push("  " + " ".repeat(indent) + label + "[");
              // Unchanged members of an object are counted at its end; unchanged elements of an
              // array, run by run.
              const same = (k) => has(a, k) && has(b, k) && equal(a[k], b[k]);
              const shown = isArray ? keys : keys.filter((k) => !same(k));
              const hidden = isArray ? 0 : keys.length - shown.length;
              let unchanged = 0;
              const fold = (last) => {
                if (unchanged) out.push("  " + " ".repeat(indent + 2) + "… (" + unchanged + " unchanged)" + (last ? "" : ","));
                unchanged = 0;
              };
              shown.forEach((k, i) => {
                const last = i === shown.length - 1 && hidden === 0, inA = has(a, k), inB = has(b, k);
                const key = isArray ? "[" + k + "]: " : JSON.stringify(k) + ": ", c = last ? "" : ",";
                if (same(k)) { unchanged++; if (last) fold(true); return; }
                fold(false);
                if (inA && inB) { diffLines(a[k], b[k], indent + 2, key, c, out); return; }
                if (inA) dumpLines(a[k], indent + 2, key, c).forEach((line) => out.push("- " + line));
                if (inB) dumpLines(b[k], indent + 2, key, c).forEach((line) => out.push("+ " + line));
              });
              unchanged = hidden;
              fold(true);
              out.push("  " + " ".repeat(indent) + "]" + comma);
            } else {
              dumpLines(a, indent, label, comma).forEach((line) => out.push("- " + line));
              dumpLines(b, indent, label, comma).forEach((line) => out.push("+ " + line));
            }
            return out;
          }
          const diffText = (a, b) => (equal(a, b) ? "(no change)" : diffLines(a, b, 0, "", "", []).join("\n"));

          function tree(value, label, depth, path, changed, openDepth) {
            const key = label === null ? "" : '<span class="key">' + esc(label) + "</span>: ";
            const id = JSON.stringify(path), mark = changed.has(id) ? " changed" : "";
            if (value !== null && typeof value === "object") {
              const isArray = Array.isArray(value);
              const keys = isArray ? value.map((_, i) => i) : Object.keys(value).sort();
              const size = isArray ? "[" + plural(value.length, "element") + "]" : "{" + plural(keys.length, "member") + "}";
              if (keys.length === 0) return '<div class="leaf' + mark + '">' + key + size + "</div>";
              const open = depth < openDepth || changed.has(id) || changed.has("<" + id) ? " open" : "";
              return '<details class="node' + mark + '"' + open + "><summary>" + key + size + "</summary>" +
                keys.map((k) => tree(value[k], isArray ? "[" + k + "]" : k, depth + 1, path.concat([k]), changed, openDepth)).join("") +
                "</details>";
            }
            return '<div class="leaf' + mark + '">' + key + '<span class="' + typeof value + '">' + esc(JSON.stringify(value)) + "</span></div>";
          }

          const gapRow = (dropped, line) => '<tr class="gap"><td colspan="5">' +
            (dropped > 0 ? plural(dropped, "action") + " dropped" : "recording paused") +
            (line ? " — the state was recorded again on line " + line : "") + "</td></tr>";
          const html = ['<tr class="initial" data-step="0"><td></td><td></td><td colspan="3">initial state</td></tr>'];
          for (const s of steps) {
            if (s.gap !== undefined) html.push(gapRow(s.gap, s.line));
            html.push('<tr class="row" id="step-' + s.step + '" data-step="' + s.step + '"><td class="seq">' + s.seq +
              '</td><td class="cause">' + (s.cause === null ? "·" : s.cause) +
              '</td><td class="name" style="padding-left:' + (0.5 + 1.4 * Math.min(s.depth, 12)) + 'em">' +
              (s.depth > 0 ? '<span class="branch">└─</span> ' : "") + esc(s.name) +
              '</td><td class="origin">' + esc(s.origin) + '</td><td class="summary">' + esc(s.summary) + "</td></tr>");
          }
          if (end.trailingDropped > 0) html.push(gapRow(end.trailingDropped, 0));
          $("rows").innerHTML = html.join("");
          $("facts").textContent = plural(steps.length, "action") +
            (meta.appVersion === null ? "" : ", app version " + meta.appVersion) +
            ", " + (end.dropped === 0 ? "none dropped" : end.dropped + " dropped");
          $("slider").max = String(steps.length);

          const link = (step) => {
            const s = steps[step - 1];
            return '<a href="#step-' + step + '">#' + s.seq + " " + esc(s.name) + "</a> <small>(" + esc(s.origin) + ")</small>";
          };
          let selected = null;
          function select(n) {
            n = Math.max(0, Math.min(steps.length, n));
            if (selected) selected.classList.remove("selected");
            selected = document.querySelector('#rows tr[data-step="' + n + '"]');
            if (selected) {
              selected.classList.add("selected");
              if (selected.scrollIntoView) selected.scrollIntoView({ block: "nearest" });
            }
            $("slider").value = String(n);
            $("position").textContent = "step " + n + " of " + steps.length;
            const changed = new Set();
            if (n === 0) {
              $("step-title").textContent = "Initial state";
              $("causes").textContent = "—";
              $("diff").textContent = "";
              $("action").textContent = "—";
            } else {
              const s = steps[n - 1];
              $("step-title").textContent = "Step " + n + ": #" + s.seq + " " + s.name + " (line " + s.line + ")";
              const chain = [];
              for (let cause = s.cause; cause !== null && stepOfSeq.has(cause) && chain.length < 64;) {
                const step = stepOfSeq.get(cause);
                chain.unshift(step);
                cause = steps[step - 1].cause;
              }
              let causes = chain.length ? "<div>Caused by</div><ul>" + chain.map((step) => "<li>" + link(step) + "</li>").join("") + "</ul>"
                : "<div>" + (s.cause === null ? "Sent by the app (" + esc(s.origin) + ")" : "Caused by #" + s.cause + ", not in the recording") + "</div>";
              const caused = children.get(s.seq) || [];
              if (caused.length) causes += "<div>Dispatched</div><ul>" + caused.map((step) => "<li>" + link(step) + "</li>").join("") + "</ul>";
              $("causes").innerHTML = causes;
              const before = s.before !== undefined ? s.before : stateAt(n - 1);
              $("diff").innerHTML = diffText(before, stateAt(n)).split("\n").map((line) => {
                const kind = line.startsWith("-") ? "del" : line.startsWith("+") ? "ins" : "";
                return kind ? '<span class="' + kind + '">' + esc(line) + "</span>" : esc(line) + "\n";
              }).join("");
              $("action").innerHTML = tree(s.action, null, 0, [], new Set(), 16);
              for (const change of s.changes) {
                changed.add(JSON.stringify(change[0]));
                for (let i = 0; i < change[0].length; i++) changed.add("<" + JSON.stringify(change[0].slice(0, i)));
              }
            }
            $("state").innerHTML = tree(stateAt(n), null, 0, [], changed, 2);
          }
          const fromHash = () => {
            const match = /^#step-(\d+)$/.exec(location.hash);
            return match ? Number(match[1]) : (steps.length ? 1 : 0);
          };
          function go(n) {
            history.replaceState(null, "", "#step-" + n);
            select(n);
          }
          $("slider").addEventListener("input", (event) => go(Number(event.target.value)));
          $("rows").addEventListener("click", (event) => {
            const row = event.target.closest("tr[data-step]");
            if (row) go(Number(row.dataset.step));
          });
          document.addEventListener("keydown", (event) => {
            if (event.target === $("slider")) return;
            if (event.key === "ArrowDown" || event.key === "ArrowRight") { go(Number($("slider").value) + 1); event.preventDefault(); }
            if (event.key === "ArrowUp" || event.key === "ArrowLeft") { go(Number($("slider").value) - 1); event.preventDefault(); }
          });
          window.addEventListener("hashchange", () => select(fromHash()));
          select(fromHash());
        })();
        </script>
        </body>
        </html>

        """#
}
