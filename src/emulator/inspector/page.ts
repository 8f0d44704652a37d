// The inspector's page (docs/inspector.md): a shell the script (page-script.ts) fills from the JSON of /fmgen/api/.
// Served by the emulator itself, with its style and script, so it works offline: no CDN, no font, no network.

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fmgen emulator inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/fmgen/inspector.css">
<script src="/fmgen/inspector.js" defer></script>
</head>
<body>
<header>
  <h1>fmgen emulator inspector</h1>
  <span id="status" class="muted">loading…</span>
</header>
<div id="layout">
  <nav id="files" aria-label="Hosted files"><h2>Hosted files</h2><div id="file-list"></div>
    <h2>Sections</h2>
    <ul class="links"><li><a href="#records">Records</a></li><li><a href="#requests">Requests</a></li><li><a href="#sessions">Sessions</a></li><li><a href="#webhooks">Webhooks</a></li><li><a href="#faults">Faults</a></li></ul>
    <h2>Snapshot</h2>
    <ul class="links"><li><a href="/fmgen/export" download>Export</a> <span class="muted">the hosted data as a seed file (--data reads it back)</span></li></ul>
  </nav>
  <main>
    <section id="records">
      <h2 id="records-title">Records</h2>
      <form id="search" role="search"><input id="search-text" type="search" placeholder="Find text in any field" aria-label="Find text in any field"><button type="submit">Find</button><button type="button" id="search-clear">Show all</button></form>
      <div class="pager"><button type="button" id="prev">‹ Previous</button><span id="page-info"></span><button type="button" id="next">Next ›</button></div>
      <div class="scroll"><table id="record-table"><thead></thead><tbody></tbody></table></div>
      <div id="record-detail"></div>
    </section>
    <section id="requests">
      <h2>Requests <span class="muted" id="log-info"></span></h2>
      <p class="muted">Data API, OData and Web Viewer requests, newest first, live. Secrets are removed; bodies are cut past 4 KiB.</p>
      <div class="scroll"><table id="log-table"><thead><tr><th>#</th><th>time</th><th>API</th><th>method</th><th>path</th><th>account</th><th>status</th><th>code</th><th>ms</th></tr></thead><tbody></tbody></table></div>
      <div id="request-detail"></div>
    </section>
    <section id="sessions"><h2>Data API sessions</h2><div id="session-list"></div></section>
    <section id="webhooks"><h2>OData webhooks</h2><div id="webhook-list"></div>
      <h3>Deliveries <span class="muted" id="delivery-info"></span></h3>
      <p class="muted">Each attempt, delivered or not, newest first, live. URLs lose their secret parameters; headers are never shown.</p>
      <div class="scroll"><table id="delivery-table"><thead><tr><th>time</th><th>webhook</th><th>table</th><th>operation · records</th><th>URL</th><th>outcome</th><th>attempt</th><th>ms</th></tr></thead><tbody></tbody></table></div>
      <p id="delivery-empty" class="empty">no delivery yet</p>
    </section>
    <section id="faults"><h2>Injected faults</h2><div id="fault-plan"></div></section>
  </main>
</div>
</body>
</html>
`;
