/**
 * The browser's Web Viewer shim (`GET /fmgen/webviewer.js`): a script that defines `window.FileMaker`, whose calls
 * are POSTed to the emulator one at a time in order, each answer given to the page's global callback in a turn of its
 * own. The account and Web Viewer name are the ones the script's URL named.
 */
export function shimScript(config: { endpoint: string; account: string | undefined; webViewer: string | undefined }): string {
  return `// fmgen emulator: an emulated FileMaker Web Viewer bridge (docs/emulator.md, "Web Viewer bridge").
(function () {
  "use strict";
  var endpoint = ${JSON.stringify(config.endpoint)};
  var account = ${JSON.stringify(config.account ?? null)};
  var webViewer = ${JSON.stringify(config.webViewer ?? null)};
  var queue = Promise.resolve();
  function answer(a) {
    setTimeout(function () {
      var callback = window[a.callback];
      if (typeof callback === "function") callback.call(window, a.id, a.result);
      else console.error("fmgen webviewer shim: the page has no function " + JSON.stringify(a.callback) + " to answer call " + a.id);
    }, 0);
  }
  function perform(script, parameter) {
    var body = JSON.stringify({ account: account, webViewer: webViewer, script: String(script), parameter: parameter === undefined || parameter === null ? "" : String(parameter) });
    queue = queue.then(function () {
      return fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json" }, body: body })
        .then(function (response) {
          if (!response.ok) return response.text().then(function (t) { throw new Error("HTTP " + response.status + ": " + t); });
          return response.json();
        })
        .then(function (reply) { if (reply && reply.answer) answer(reply.answer); })
        .catch(function (error) { console.error("fmgen webviewer shim: " + (error && error.message)); });
    });
  }
  window.FileMaker = {
    PerformScript: function (script, parameter) { perform(script, parameter); },
    PerformScriptWithOption: function (script, parameter) { perform(script, parameter); }
  };
})();
`;
}
