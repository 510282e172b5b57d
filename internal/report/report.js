// report.html: draws the charts from the data embedded in the page.
(function () {
  "use strict";
  var t0 = performance.now();
  var data = JSON.parse(document.getElementById("loadlens-data").textContent);
  var store = new LL.Store(data.meta);
  var obs = new LL.Observed();
  data.frames.forEach(function (f) { store.push(f); obs.cover(f); });
  obs.add(data.observed);
  LL.findings = data.diagnosis.findings;
  var last = Math.max(store.t.length ? store.t[store.t.length - 1] : 1, obs.lastSec());
  var xMax = function () { return last; };
  var panels = LL.timePanels(document.getElementById("panels"), store, xMax, obs.hasGenerator());
  new LL.ObservedView(document.getElementById("server"), document.getElementById("generator"), obs, xMax).sync();
  if (!store.cpu.some(function (v) { return v !== null; })) {
    panels.filter(function (p) { return p.key === "cpu"; }).forEach(function (p) {
      p.box.insertBefore(LL.el("p", "panel-note", "Not recorded for this run."), p.plot);
    });
  }
  if (data.spectra.length && data.spectra[0].n > 0) {
    LL.spectrumPanel(document.getElementById("spectrum"), data.spectra);
  } else {
    document.getElementById("spectrum").appendChild(LL.el("p", "muted", "No " + LL.unitOf(data.meta).one + " completed."));
  }
  var eps = document.getElementById("endpoints");
  if (eps) LL.sortable(eps);
  LL.renderMs = performance.now() - t0;
  LL.ready = true;
})();
