// The inspector's style sheet: system fonts only, nothing fetched.

export const INSPECTOR_STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #888; --accent: #2a6fdb; --bad: #c0392b; --ok: #1e8449; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
header { display: flex; gap: 1em; align-items: baseline; padding: .6em 1em; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.2em; margin: 0; }
h2 { font-size: 1.05em; margin: 1.2em 0 .5em; }
h3 { font-size: 1em; margin: 1em 0 .4em; }
#layout { display: flex; align-items: flex-start; }
nav { width: 16em; flex: none; padding: 0 1em 1em; border-right: 1px solid var(--line); min-height: 100vh; }
main { flex: 1; min-width: 0; padding: 0 1em 2em; }
.muted { color: var(--muted); font-weight: normal; }
.links { list-style: none; padding: 0; margin: 0; }
nav button.pick { display: block; width: 100%; text-align: left; background: none; border: 0; padding: .15em .4em; color: inherit; cursor: pointer; border-radius: 3px; font: inherit; }
nav button.pick:hover, nav button.pick.on { background: #2a6fdb22; }
nav .file { font-weight: 600; margin-top: .6em; }
nav .kind { color: var(--muted); font-size: .85em; margin: .3em 0 0 .4em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .25em .5em; text-align: left; vertical-align: top; }
th { font-weight: 600; white-space: nowrap; }
td { max-width: 28em; overflow-wrap: anywhere; }
tbody tr.clickable { cursor: pointer; }
tbody tr.clickable:hover, tbody tr.on { background: #2a6fdb18; }
tr.fresh { animation: fresh 2s ease-out; }
@keyframes fresh { from { background: #f1c40f55; } to { background: transparent; } }
.scroll { overflow-x: auto; max-height: 32em; overflow-y: auto; }
.pager { display: flex; gap: .6em; align-items: center; margin: .4em 0; }
form#search { display: flex; gap: .4em; }
input[type=search] { flex: 1; max-width: 24em; padding: .25em .4em; }
pre { background: #8881; padding: .5em; overflow: auto; max-height: 24em; white-space: pre-wrap; overflow-wrap: anywhere; margin: .3em 0; }
.detail { border: 1px solid var(--line); border-radius: 4px; padding: .2em 1em 1em; margin-top: 1em; }
.bad { color: var(--bad); font-weight: 600; }
.good { color: var(--ok); }
img.container { max-width: 12em; max-height: 8em; display: block; border: 1px solid var(--line); }
.empty { color: var(--muted); font-style: italic; }
`;
