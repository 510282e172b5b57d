// The live dashboard: a stream of server-sent events ("history" with the
// run so far, then a "frame" a second, then "end") drawn with the panels
// report.html uses. Text from the run is shown with textContent only.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var store = null, meta = null, panels = [], cards = {}, ended = false, pending = false, es = null;
  var obs = null, view = null;

  function card(key, label) {
    var box = LL.el("div", "card");
    box.appendChild(LL.el("div", "label", label));
    var value = LL.el("div", "value", "-"), sub = LL.el("div", "sub", "");
    box.appendChild(value);
    box.appendChild(sub);
    $("headline").appendChild(box);
    cards[key] = { value: value, sub: sub };
  }

  function setCard(key, value, sub, bad) {
    var c = cards[key];
    c.value.textContent = value;
    c.value.classList.toggle("bad", !!bad);
    c.sub.textContent = sub || "";
  }

  function elapsed() { return store.t.length ? store.t[store.t.length - 1] + 1 : 0; }

  function init(h) {
    meta = h.meta;
    LL.charts.forEach(function (c) { if (c.u) c.u.destroy(); }); // a reconnection draws everything again
    LL.charts = [];
    store = new LL.Store(meta);
    obs = new LL.Observed();
    h.frames.forEach(function (f) { store.push(f); obs.add(f.o); });
    document.title = meta.name + " · loadlens live";
    $("run-name").textContent = meta.name;
    $("subtitle").textContent = "started " + new Date(meta.start).toLocaleString() + " · " + meta.host + " · " +
      meta.cpus + " CPUs · loadlens " + meta.version;
    $("headline").textContent = "";
    card("rps", "Requests/s");
    card("p95", "p95 latency");
    card("err", "Errors");
    card("vus", "VUs");
    card("dropped", "Dropped");
    card("cpu", "Generator CPU");
    var tb = $("thresholds").tBodies[0];
    tb.textContent = "";
    meta.thresholds.forEach(function (t) {
      var tr = LL.el("tr");
      tr.appendChild(LL.el("td", "mark nodata", "–"));
      tr.appendChild(LL.el("td", "name mono", t.key));
      tr.appendChild(LL.el("td", "mono", t.expr));
      tr.appendChild(LL.el("td", "nodata", "no data yet"));
      tb.appendChild(tr);
    });
    $("thresholds-box").hidden = meta.thresholds.length === 0;
    var eb = $("endpoints").tBodies[0];
    eb.textContent = "";
    meta.endpoints.forEach(function (_, i) {
      var tr = LL.el("tr");
      tr.appendChild(LL.el("td", "name", LL.endpointLabel(meta, i)));
      for (var k = 0; k < 7; k++) tr.appendChild(LL.el("td", "num", "-"));
      eb.appendChild(tr);
    });
    var box = $("panels");
    box.textContent = "";
    var xMax = function () { return Math.max(meta.planned_s || 0, elapsed(), 1); };
    // A live run always observes the generator, so its panels are in a group of their own.
    panels = LL.timePanels(box, store, xMax, true);
    $("server").textContent = "";
    $("generator").textContent = "";
    view = new LL.ObservedView($("server"), $("generator"), obs, xMax);
    showDiagnosis(h.diagnosis || null, false);
    refresh();
  }

  // showDiagnosis lists the findings (or the healthy statement) and marks
  // them on the charts; live ones are of the run so far.
  function showDiagnosis(d, final) {
    if (!d) return;
    var box = $("findings");
    box.textContent = "";
    (d.findings || []).forEach(function (f) { box.appendChild(findingCard(f)); });
    if (d.healthy) {
      var p = LL.el("p", "healthy");
      p.id = "healthy";
      p.appendChild(LL.el("span", "ok", "✓"));
      p.appendChild(document.createTextNode(" " + (final ? "" : "So far: ") + d.healthy));
      box.appendChild(p);
    }
    var note = $("findings-note");
    note.hidden = final;
    note.textContent = final ? "" : "Diagnosed on the run's first " + LL.fmtElapsed(d.upto || 0) +
      ", again every 5 s while it lasts; the final findings come when it ends.";
    $("findings-box").hidden = false;
    LL.setFindings(d.findings || []);
  }

  // findingCard is one finding as report.html shows it.
  function findingCard(f) {
    var card = LL.el("article", "finding " + f.severity);
    card.id = "finding-" + f.n;
    var head = LL.el("div", "finding-head");
    head.appendChild(LL.el("span", "finding-n", "#" + f.n));
    head.appendChild(LL.el("span", "sev " + f.severity, f.severity));
    head.appendChild(LL.el("h3", "finding-title", f.title));
    head.appendChild(LL.el("span", "when mono", f.when));
    card.appendChild(head);
    if (f.evidence && f.evidence.length) {
      var table = LL.el("table", "evidence"), body = LL.el("tbody");
      f.evidence.forEach(function (e) {
        var tr = LL.el("tr");
        tr.appendChild(LL.el("td", "num mono", e.at));
        tr.appendChild(LL.el("td", null, e.text));
        tr.appendChild(LL.el("td", "mono src", e.source));
        body.appendChild(tr);
      });
      table.appendChild(body);
      card.appendChild(table);
    }
    if (f.remedies && f.remedies.length) {
      var rem = LL.el("div", "remedies"), ol = LL.el("ol");
      rem.appendChild(LL.el("div", "label", "Usual remedies, cheapest first"));
      f.remedies.forEach(function (r) { ol.appendChild(LL.el("li", null, r)); });
      rem.appendChild(ol);
      card.appendChild(rem);
    }
    card.appendChild(LL.el("div", "finding-kind mono", f.kind));
    return card;
  }

  // showScrapeErrors lists the run's notices about failed scrapes.
  function showScrapeErrors(notices) {
    var box = $("scrape-errors");
    box.textContent = "";
    (notices || []).forEach(function (n) {
      if (n.indexOf("scraping ") === 0) box.appendChild(LL.el("p", "notice scrape-error", n));
    });
  }

  function showThresholds(states) {
    var rows = $("thresholds").tBodies[0].rows;
    (states || []).forEach(function (s, i) {
      if (!rows[i]) return;
      var mark = rows[i].cells[0], now = rows[i].cells[3];
      mark.textContent = !s.d ? "–" : s.p ? "✓" : "✗";
      mark.className = "mark " + (!s.d ? "nodata" : s.p ? "ok" : "bad");
      now.textContent = s.s + (s.a ? " (stopped the run)" : "");
      now.className = s.d ? "" : "nodata";
    });
  }

  function showEndpoints() {
    var rows = $("endpoints").tBodies[0].rows, f = store.last;
    if (!f || !f.e) return;
    store.e.forEach(function (s, i) {
      var v = f.e[i], cells = rows[i].cells, total = s.totalRq, errs = s.totalEr;
      var lat = function (x) { return v[0] > 0 ? LL.fmtMs(x) : "-"; };
      var texts = [LL.fmtNum(v[0]), LL.fmtNum(v[1]), lat(v[2]), lat(v[3]), lat(v[4]), String(total),
        errs + " (" + LL.fmtPct(total > 0 ? errs / total : 0) + ")"];
      texts.forEach(function (t, k) { cells[k + 1].textContent = t; });
      cells[2].classList.toggle("bad", v[1] > 0);
    });
  }

  function refresh() {
    var f = store.last;
    var el = elapsed(), planned = meta.planned_s || 0;
    $("clock").textContent = LL.fmtElapsed(el) + (planned > 0 ? " / " + LL.fmtElapsed(planned) : "");
    $("bar").style.width = (ended ? 100 : planned > 0 ? Math.min(100, (100 * el) / planned) : 0) + "%";
    var sofar = ended ? " in total" : " so far";
    if (f) {
      setCard("rps", LL.fmtNum(f.rq), LL.fmtNum(store.totalRq) + " requests" + sofar);
      setCard("p95", LL.fmtMs(f.rq > 0 ? f.p95 : null), "p50 " + LL.fmtMs(f.rq > 0 ? f.p50 : null) + " · p99 " + LL.fmtMs(f.rq > 0 ? f.p99 : null));
      setCard("err", LL.fmtPct(f.rq > 0 ? f.er / f.rq : 0), LL.fmtNum(store.totalEr) + " failed" + sofar + " (" +
        LL.fmtPct(store.totalRq > 0 ? store.totalEr / store.totalRq : 0) + ")", f.er > 0);
      setCard("vus", String(f.vu), "of " + f.vx + " allocated");
      setCard("dropped", LL.fmtNum(store.totalDr), store.totalDr > 0 ? "iterations without a free VU" : "iterations", store.totalDr > 0);
      setCard("cpu", f.cpu === undefined || f.cpu === null ? "-" : f.cpu.toFixed(1) + "%", "of " + meta.cpus + " cores", f.cpu > 85);
      showThresholds(f.th);
      showEndpoints();
    }
    panels.forEach(function (p) { p.update(); });
    view.sync();
    var observed = !!$("server").firstChild;
    $("server-none").hidden = observed;
    $("server-note").hidden = !observed;
  }

  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; refresh(); });
  }

  function finish(fin) {
    ended = true;
    var v = $("verdict");
    v.textContent = fin.verdict;
    v.className = "verdict " + (fin.verdict === "PASS" ? "pass" : fin.verdict === "FAIL" ? "fail" : "none");
    $("conn").hidden = true;
    if (fin.status !== "completed") {
      $("conn").textContent = fin.status;
      $("conn").hidden = false;
    }
    var note = $("ended");
    note.textContent = "The run has ended (" + fin.status + "). " + (fin.report_error ?
      "Its report could not be written: " + fin.report_error + "." :
      "Everything shown here is in " + fin.report + ", which opens without loadlens running.");
    note.hidden = false;
    var warnings = $("warnings");
    warnings.textContent = "";
    (fin.warnings || []).forEach(function (w) { warnings.appendChild(LL.el("p", "notice", w)); });
    showThresholds(fin.thresholds);
    obs.add(fin.o);
    showScrapeErrors(fin.notices);
    showDiagnosis(fin.diagnosis, true);
    $("server-none").textContent = "This test observed no server: list the target's Prometheus endpoints under observe: " +
      "in the test file to see its connection pool, CPU and GC here, beside the client's view.";
    refresh();
  }

  function connect() {
    es = new EventSource("events");
    es.addEventListener("history", function (e) { init(JSON.parse(e.data)); $("conn").hidden = true; });
    es.addEventListener("frame", function (e) {
      if (!store) return;
      var f = JSON.parse(e.data);
      store.push(f);
      obs.add(f.o);
      schedule();
    });
    es.addEventListener("diagnosis", function (e) { if (store && !ended) showDiagnosis(JSON.parse(e.data), false); });
    es.addEventListener("end", function (e) { es.close(); finish(JSON.parse(e.data)); });
    es.onerror = function () {
      if (ended) return;
      $("conn").textContent = "reconnecting…";
      $("conn").hidden = false;
    };
  }
  connect();
})();
