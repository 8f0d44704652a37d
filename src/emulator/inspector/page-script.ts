// The inspector page's script, run by the browser as it is (no build step, no library). It reads the JSON of
// /fmgen/api/ and builds the page with DOM nodes and textContent only (no HTML from data), polls the request log
// once a second for entries after the last it has (bounded: at most LOG_ROWS rows are kept), and refreshes the
// overview and the records shown when a request that may have changed them arrives. The webhooks' deliveries are
// polled the same way (at most DELIVERY_ROWS rows).

export const INSPECTOR_SCRIPT = String.raw`"use strict";
(function () {
  var POLL_MS = 1000;
  var LOG_ROWS = 500;
  var DELIVERY_ROWS = 200;
  var PAGE = 20;
  var state = { overview: null, file: null, layout: null, table: null, offset: 0, search: "", lastLog: 0, lastDelivery: 0, selectedRecord: null, selectedRequest: null, polling: false };

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "className") node.className = attrs[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    }
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function getJson(path) {
    return fetch(path, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" }).then(function (res) {
      return res.json().then(function (body) {
        if (!res.ok) throw new Error((body && body.error) || ("HTTP " + res.status));
        return body;
      });
    });
  }
  function q(params) {
    return Object.keys(params).filter(function (k) { return params[k] !== null && params[k] !== undefined && params[k] !== ""; })
      .map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]); }).join("&");
  }
  function setStatus(text, bad) { var s = $("status"); s.textContent = text; s.className = bad ? "bad" : "muted"; }

  // The value of a field as a cell: text, or a container (an image inline, any other file as a link).
  function valueNode(value) {
    if (Array.isArray(value)) return el("span", null, value.map(function (v, i) { return el("div", null, [i + 1 + ": ", valueNode(v)]); }));
    if (value && typeof value === "object" && value.container) {
      var c = value.container;
      if (/^image\//.test(c.contentType)) return el("span", null, [el("img", { className: "container", src: c.url, alt: c.filename, title: c.filename + " (" + c.size + " bytes)" }), c.filename]);
      return el("a", { href: c.url, text: c.filename + " (" + c.contentType + ", " + c.size + " bytes)" });
    }
    return document.createTextNode(value === null || value === undefined ? "" : String(value));
  }

  function renderFiles() {
    var list = clear($("file-list"));
    var files = state.overview.files;
    if (files.length === 0) list.appendChild(el("p", { className: "empty", text: "no hosted file" }));
    files.forEach(function (file) {
      list.appendChild(el("div", { className: "file", text: file.name }));
      if (file.layouts.length) list.appendChild(el("div", { className: "kind", text: "layouts" }));
      file.layouts.forEach(function (layout) {
        list.appendChild(el("button", { type: "button", className: "pick" + (state.file === file.name && state.layout === layout.name ? " on" : ""), text: layout.name + "  (" + layout.table + ")", "data-file": file.name, "data-layout": layout.name, onclick: function () { choose(file.name, layout.name, null); } }));
      });
      list.appendChild(el("div", { className: "kind", text: "tables" }));
      file.tables.forEach(function (table) {
        list.appendChild(el("button", { type: "button", className: "pick" + (state.file === file.name && state.table === table.name ? " on" : ""), text: table.name + "  · " + table.records + " records", "data-file": file.name, "data-table": table.name, onclick: function () { choose(file.name, null, table.name); } }));
      });
    });
  }

  function renderSessions() {
    var box = clear($("session-list"));
    var sessions = state.overview.sessions;
    if (!sessions.length) { box.appendChild(el("p", { className: "empty", text: "no session" })); return; }
    box.appendChild(el("table", null, [
      el("thead", null, [el("tr", null, ["session id", "file", "account", "created", "last used", "state"].map(function (h) { return el("th", { text: h }); }))]),
      el("tbody", null, sessions.map(function (s) {
        return el("tr", null, [s.id, s.database, s.account, s.created, s.lastUsed, s.expired ? "expired" : "live"].map(function (t) { return el("td", { text: t }); }));
      })),
    ]));
  }

  function renderWebhooks() {
    var box = clear($("webhook-list"));
    var any = false;
    state.overview.files.forEach(function (file) {
      (file.webhooks || []).forEach(function (hook) {
        any = true;
        var pending = hook.pendingOperations || [];
        box.appendChild(el("div", { className: "detail", "data-hook": file.name + "/" + hook.webhookID }, [
          el("h3", { text: file.name + " · webhook " + hook.webhookID + " on " + hook.tableName }),
          el("p", null, ["POSTs to ", el("code", { text: String(hook.webhook) }), "; headers: " + Object.keys(hook.headers || {}).join(", ") + (Object.keys(hook.headers || {}).length ? " (values removed)" : "none")]),
          el("p", { text: pending.length ? pending.length + " delivery(ies) waiting:" : "no delivery waiting" }),
          pending.length ? el("pre", { text: JSON.stringify(pending, null, 2) }) : null,
        ]));
      });
    });
    if (!any) box.appendChild(el("p", { className: "empty", text: "no webhook" }));
  }

  function deliveryRow(d, fresh) {
    var outcome = d.delivered ? "delivered" : "failed";
    return el("tr", { className: fresh ? "fresh" : "", "data-delivery": String(d.id), "data-webhook": d.file + "/" + d.webhookID }, [
      el("td", { text: d.at.slice(11, 23) }),
      el("td", { text: d.file + " · " + d.webhookID }),
      el("td", { text: d.table }),
      el("td", { text: d.operation + " · " + d.records }),
      el("td", { text: d.url }),
      el("td", { className: d.delivered ? "good" : "bad", text: outcome + (d.status === null ? "" : " · HTTP " + d.status) + (d.error === null ? "" : " · " + d.error) }),
      el("td", { text: String(d.attempt) }),
      el("td", { text: String(d.ms) }),
    ]);
  }

  // The deliveries: attempts after the last one shown, newest first; refreshes the overview (its waiting deliveries).
  function pollDeliveries() {
    return getJson("/fmgen/api/deliveries?after=" + state.lastDelivery).then(function (h) {
      var body = $("delivery-table").tBodies[0];
      h.entries.forEach(function (d) {
        body.insertBefore(deliveryRow(d, state.lastDelivery > 0), body.firstChild);
        if (d.id > state.lastDelivery) state.lastDelivery = d.id;
      });
      while (body.rows.length > DELIVERY_ROWS) body.deleteRow(body.rows.length - 1);
      $("delivery-info").textContent = "(" + h.total + (h.total === 1 ? " attempt" : " attempts") + ", the last " + h.size + " kept)";
      $("delivery-empty").hidden = body.rows.length > 0;
      if (h.entries.length) return loadOverview();
    });
  }

  function renderFaults() {
    var box = clear($("fault-plan"));
    var f = state.overview.faults;
    if (!f) { box.appendChild(el("p", { className: "empty", text: "no faults injected (start with --faults to inject some)" })); return; }
    box.appendChild(el("h3", { text: "plan" }));
    box.appendChild(el("pre", { text: JSON.stringify(f.options, null, 2) }));
    box.appendChild(el("h3", { text: "played so far" }));
    box.appendChild(el("pre", { text: JSON.stringify(f.counts, null, 2) }));
  }

  function loadOverview() {
    return getJson("/fmgen/api/overview").then(function (o) {
      state.overview = o;
      if (state.file === null) {
        var first = o.files[0];
        if (first) {
          state.file = first.name;
          if (first.layouts[0]) state.layout = first.layouts[0].name;
          else if (first.tables[0]) state.table = first.tables[0].name;
        }
      }
      renderFiles(); renderSessions(); renderWebhooks(); renderFaults();
      $("log-info").textContent = "(" + o.log.total + " logged, the last " + o.log.size + " kept)";
    });
  }

  function choose(file, layout, table) {
    state.file = file; state.layout = layout; state.table = table; state.offset = 0; state.selectedRecord = null;
    clear($("record-detail"));
    renderFiles();
    loadRecords();
  }

  function loadRecords() {
    if (state.file === null) return Promise.resolve();
    var params = { file: state.file, layout: state.layout, table: state.table, offset: state.offset, limit: PAGE, q: state.search };
    return getJson("/fmgen/api/records?" + q(params)).then(function (page) {
      $("records-title").textContent = "Records · " + page.file + " · " + (page.layout ? "layout " + page.layout + " (table " + page.table + ")" : "table " + page.table);
      var first = page.found === 0 ? 0 : page.offset + 1;
      $("page-info").textContent = first + "–" + (page.offset + page.records.length) + " of " + page.found + (state.search ? " found (" + page.total + " in all)" : "");
      $("prev").disabled = page.offset === 0;
      $("next").disabled = page.offset + page.records.length >= page.found;
      var table = $("record-table");
      clear(table.tHead).appendChild(el("tr", null, [el("th", { text: "recordId" })].concat(page.fields.map(function (f) { return el("th", { text: f }); }))));
      var body = clear(table.tBodies[0]);
      if (!page.records.length) body.appendChild(el("tr", null, [el("td", { className: "empty", colspan: String(page.fields.length + 1), text: state.search ? "no record holds that text" : "no record" })]));
      page.records.forEach(function (r) {
        body.appendChild(el("tr", { className: "clickable" + (state.selectedRecord === r.recordId ? " on" : ""), "data-record": String(r.recordId), onclick: function () { showRecord(r.recordId); } },
          [el("td", { text: String(r.recordId) })].concat(page.fields.map(function (f) { return el("td", null, [valueNode(r.fields[f])]); }))));
      });
      if (state.selectedRecord !== null) showRecord(state.selectedRecord);
    }).catch(function (e) { setStatus("records: " + e.message, true); });
  }

  function fieldTable(fields, names) {
    return el("table", null, [el("tbody", null, names.map(function (n) { return el("tr", null, [el("th", { text: n }), el("td", null, [valueNode(fields[n])])]); }))]);
  }

  function showRecord(id) {
    state.selectedRecord = id;
    var params = { file: state.file, layout: state.layout, table: state.table, id: id };
    return getJson("/fmgen/api/record?" + q(params)).then(function (r) {
      var box = clear($("record-detail"));
      var detail = el("div", { className: "detail", id: "record-" + r.recordId }, [el("h3", { text: "Record " + r.recordId + " (modId " + r.modId + ")" }), fieldTable(r.fields, Object.keys(r.fields))]);
      r.portals.forEach(function (p) {
        detail.appendChild(el("h3", { text: "Portal " + p.name + " (" + p.table + "): " + p.count + " row(s)" + (p.count > p.rows.length ? ", the first " + p.rows.length + " shown" : "") }));
        if (!p.rows.length) { detail.appendChild(el("p", { className: "empty", text: "no row" })); return; }
        detail.appendChild(el("div", { className: "scroll" }, [el("table", null, [
          el("thead", null, [el("tr", null, [el("th", { text: "recordId" })].concat(p.fields.map(function (f) { return el("th", { text: f }); })))]),
          el("tbody", null, p.rows.map(function (row) { return el("tr", null, [el("td", { text: String(row.recordId) })].concat(p.fields.map(function (f) { return el("td", null, [valueNode(row.fields[f])]); }))); })),
        ])]));
      });
      box.appendChild(detail);
    }).catch(function (e) { clear($("record-detail")).appendChild(el("p", { className: "bad", text: e.message })); });
  }

  function logRow(entry, fresh) {
    var bad = entry.status !== null && entry.status >= 400;
    return el("tr", { className: "clickable" + (fresh ? " fresh" : ""), "data-request": String(entry.id), onclick: function () { showRequest(entry.id); } }, [
      el("td", { text: String(entry.id) }),
      el("td", { text: entry.at.slice(11, 23) }),
      el("td", { text: entry.api }),
      el("td", { text: entry.method }),
      el("td", { text: entry.path }),
      el("td", { text: entry.account === null ? "" : entry.account }),
      el("td", { className: bad ? "bad" : "good", text: entry.status === null ? "…" : String(entry.status) }),
      el("td", { className: entry.code !== null && entry.code !== "0" ? "bad" : "", text: entry.code === null ? "" : entry.code }),
      el("td", { text: entry.ms === null ? "" : String(entry.ms) }),
    ]);
  }

  function bodyNode(title, body) {
    if (!body) return el("p", { className: "muted", text: title + ": none" });
    var head = title + " (" + (body.type || "no type") + ", " + body.size + " bytes" + (body.truncated ? ", cut" : "") + ")";
    if (body.text === null || body.text === undefined) return el("p", { className: "muted", text: head + ": not logged (not JSON or text)" });
    var text = body.text;
    try { if (!body.truncated && /^\s*[\[{]/.test(text)) text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* shown as it is */ }
    return el("div", null, [el("h3", { text: head }), el("pre", { text: text })]);
  }

  function headerTable(headers) {
    var names = Object.keys(headers || {});
    if (!names.length) return el("p", { className: "muted", text: "none" });
    return el("table", null, [el("tbody", null, names.map(function (n) { return el("tr", null, [el("th", { text: n }), el("td", { text: headers[n] })]); }))]);
  }

  function showRequest(id) {
    state.selectedRequest = id;
    return getJson("/fmgen/api/request?id=" + id).then(function (r) {
      var box = clear($("request-detail"));
      box.appendChild(el("div", { className: "detail", id: "request-" + r.id }, [
        el("h3", { text: "Request " + r.id + ": " + r.api + " " + r.method + " " + r.path }),
        el("p", { text: "account " + (r.account || "(none)") + " · status " + r.status + " · code " + (r.code === null ? "(none)" : r.code) + " · " + r.ms + " ms · " + r.at }),
        el("h3", { text: "request headers" }), headerTable(r.requestHeaders),
        bodyNode("request body", r.request),
        el("h3", { text: "answer headers" }), headerTable(r.answerHeaders),
        bodyNode("answer body", r.answer),
      ]));
    }).catch(function (e) { clear($("request-detail")).appendChild(el("p", { className: "bad", text: e.message })); });
  }

  // The live log: entries after the last one shown, newest first; an entry still running is asked for again.
  var pendingIds = {};
  function pollLog() {
    var after = state.lastLog;
    var pendingList = Object.keys(pendingIds).map(Number);
    if (pendingList.length) after = Math.min(after, Math.min.apply(null, pendingList) - 1);
    return getJson("/fmgen/api/log?after=" + after).then(function (log) {
      var body = $("log-table").tBodies[0];
      var changed = false;
      log.entries.forEach(function (entry) {
        var existing = body.querySelector('tr[data-request="' + entry.id + '"]');
        var row = logRow(entry, !existing && state.lastLog > 0);
        if (existing) body.replaceChild(row, existing);
        else { body.insertBefore(row, body.firstChild); if (entry.method !== "GET") changed = true; }
        if (entry.status === null) pendingIds[entry.id] = true; else delete pendingIds[entry.id];
        if (entry.id > state.lastLog) state.lastLog = entry.id;
      });
      while (body.rows.length > LOG_ROWS) body.deleteRow(body.rows.length - 1);
      $("log-info").textContent = "(" + log.total + " logged, the last " + log.size + " kept)";
      setStatus("live · " + new Date().toLocaleTimeString(), false);
      if (changed) return loadOverview().then(loadRecords);
    }).catch(function (e) { setStatus("offline: " + e.message, true); });
  }
  function loop() {
    pollLog().then(pollDeliveries).catch(function (e) { setStatus("offline: " + e.message, true); }).then(function () { setTimeout(loop, POLL_MS); });
  }

  function start() {
    $("search").addEventListener("submit", function (e) { e.preventDefault(); state.search = $("search-text").value; state.offset = 0; loadRecords(); });
    $("search-clear").addEventListener("click", function () { $("search-text").value = ""; state.search = ""; state.offset = 0; loadRecords(); });
    $("prev").addEventListener("click", function () { state.offset = Math.max(0, state.offset - PAGE); loadRecords(); });
    $("next").addEventListener("click", function () { state.offset += PAGE; loadRecords(); });
    loadOverview().then(loadRecords).then(pollDeliveries).then(function () { document.body.setAttribute("data-ready", "true"); loop(); })
      .catch(function (e) { setStatus("cannot read the emulator: " + e.message, true); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
`;
