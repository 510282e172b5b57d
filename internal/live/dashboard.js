// The live dashboard: a stream of server-sent events ("history" with the
// run so far, then a "frame" a second, then "end") drawn with the panels
// report.html uses. Text from the run is shown with textContent only.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var store = null, meta = null, panels = [], cards = {}, ended = false, pending = false, es = null;
  var obs = null, view = null;
  var table = null; // the per-endpoint figures: of the run so far, then of the whole run
  var unit = null; // what the run counts (report.PageUnit): requests, gRPC calls, sessions
  var final = null; // the "end" event

  // card adds a headline card; its label names what the figure covers
  // ("last second" while the run lasts, "whole run" once it has ended).
  function card(key, label) {
    var box = LL.el("div", "card");
    box.id = "card-" + key;
    var head = LL.el("div", "label", label + " · ");
    var scope = LL.el("span", "scope", "");
    head.appendChild(scope);
    box.appendChild(head);
    var value = LL.el("div", "value", "-"), sub = LL.el("div", "sub", "");
    box.appendChild(value);
    box.appendChild(sub);
    $("headline").appendChild(box);
    cards[key] = { value: value, sub: sub, scope: scope };
  }

  function setCard(key, scope, value, sub, bad) {
    var c = cards[key];
    c.scope.textContent = scope;
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
    h.frames.forEach(function (f) { store.push(f); obs.add(f.o); obs.cover(f); });
    document.title = meta.name + " · loadlens live";
    $("run-name").textContent = meta.name;
    $("subtitle").textContent = "started " + new Date(meta.start).toLocaleString() + " · " + meta.host + " · " +
      meta.cpus + " CPUs · loadlens " + meta.version;
    $("headline").textContent = "";
    unit = LL.unitOf(meta);
    card("rps", unit.many === "requests" ? "Requests/s" : unit.many.charAt(0).toUpperCase() + unit.many.slice(1) + "/s");
    var head = $("endpoints").tHead.rows[0].cells;
    head[1].textContent = unit.count;
    head[3].textContent = unit.rate;
    card("p95", "p95 latency");
    card("err", "Errors");
    card("vus", "VUs");
    card("dropped", "Dropped");
    card("cpu", "Generator CPU");
    table = h.endpoints || null;
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
    meta.endpoints.forEach(function (_, i) { eb.appendChild(endpointRow(LL.endpointLabel(meta, i))); });
    var foot = $("endpoints").tFoot;
    foot.textContent = "";
    if (meta.endpoints.length > 1) {
      var total = endpointRow("all endpoints");
      total.className = "total";
      foot.appendChild(total);
    }
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

  // endpointColumns is how many figures a row of the endpoint table has.
  var endpointColumns = 11;

  function endpointRow(name) {
    var tr = LL.el("tr");
    tr.appendChild(LL.el("td", "name", name));
    for (var k = 0; k < endpointColumns; k++) tr.appendChild(LL.el("td", "num", "-"));
    return tr;
  }

  // fillEndpoint writes one endpoint's figures (report.EndpointRow) into a row.
  function fillEndpoint(tr, r) {
    if (!tr || !r) return;
    var has = r.rq > 0, lat = function (x) { return has ? LL.fmtMs(x) : "-"; };
    var texts = [LL.fmtCount(r.rq), has ? LL.fmtMs(1000 * r.act) : "-", r.rps > 0 ? LL.fmtNum(r.rps) : "-", // 0: one request, no rate
      LL.fmtCount(r.er) + " (" + LL.fmtPct(has ? r.er / r.rq : 0) + ")",
      lat(r.min), lat(r.avg), lat(r.p50), lat(r.p90), lat(r.p95), lat(r.p99), lat(r.max)];
    texts.forEach(function (t, k) { tr.cells[k + 1].textContent = t; });
    tr.cells[4].classList.toggle("bad", r.er > 0);
  }

  // showEndpoints fills the endpoint table: the run so far while it lasts,
  // the whole run once it has ended.
  function showEndpoints() {
    if (!table) return;
    var rows = $("endpoints").tBodies[0].rows;
    (table.rows || []).forEach(function (r, i) { fillEndpoint(rows[i], r); });
    var foot = $("endpoints").tFoot.rows[0];
    if (foot && table.all) fillEndpoint(foot, table.all);
    $("endpoints-note").textContent = (ended ? "Whole run. " : "Run so far, up to the latest second. ") + table.note +
      " Latencies are over every request of the endpoint" + (ended ? "." : " so far.");
  }

  // showSessions fills the sessions panel from the table's session rows
  // (report.SessionRow); a run without session steps never shows it.
  function showSessions() {
    var rows = (table && table.sessions) || [];
    $("sessions-box").hidden = rows.length === 0;
    if (!rows.length) return;
    var sb = $("sessions").tBodies[0], st = $("statuses").tBodies[0];
    if (table.sessions_head) $("sessions").tHead.rows[0].cells[2].textContent = table.sessions_head;
    sb.textContent = "";
    st.textContent = "";
    rows.forEach(function (r) {
      var name = LL.endpointLabel(meta, r.i), tr = LL.el("tr");
      [name, r.proto, LL.fmtCount(r.n), LL.fmtCount(r.tx), LL.fmtCount(r.rx), LL.fmtNum(r.rxps),
        r.first95 === undefined ? "-" : LL.fmtMs(r.first95), r.reply95 === undefined ? "-" : LL.fmtMs(r.reply95)]
        .forEach(function (t, k) { tr.appendChild(LL.el("td", k < 2 ? (k ? "mono" : "name") : "num", t)); });
      sb.appendChild(tr);
      var total = 0;
      r.st.forEach(function (c) { total += c.n; });
      r.st.forEach(function (c) {
        var row = LL.el("tr");
        row.appendChild(LL.el("td", "name", name));
        row.appendChild(LL.el("td", "mono" + (c.s === "OK" ? "" : " bad"), c.s));
        row.appendChild(LL.el("td", "num", LL.fmtCount(c.n)));
        row.appendChild(LL.el("td", "num", LL.fmtPct(c.n / total)));
        st.appendChild(row);
      });
    });
    $("sessions-note").textContent = "The session protocols' own figures (Server-Sent Events, WebSocket, gRPC) of " +
      (ended ? "the whole run" : "the run so far: a session counts, with its messages, once it has ended") +
      ". Received/s is over the run's elapsed time" + (ended ? "." : " so far.");
  }

  function refresh() {
    var f = store.last;
    var el = elapsed(), planned = meta.planned_s || 0;
    $("clock").textContent = LL.fmtElapsed(el) + (planned > 0 ? " / " + LL.fmtElapsed(planned) : "");
    $("bar").style.width = (ended ? 100 : planned > 0 ? Math.min(100, (100 * el) / planned) : 0) + "%";
    if (ended && final && final.run) {
      showWholeRun(final.run);
    } else if (f) {
      showLastSecond(f);
    }
    if (f && !ended) showThresholds(f.th);
    showEndpoints();
    showSessions();
    panels.forEach(function (p) { p.update(); });
    view.sync();
    var observed = !!$("server").firstChild;
    $("server-none").hidden = observed;
    $("server-note").hidden = !observed;
  }

  // latency reports whether the run has a latency for the p95 card: a run of
  // sessions alone has none (report.PageMeta.Latency), as report.html's "-" says.
  function latency() { return meta.latency !== "sessions"; }

  // showLastSecond fills the cards while the run lasts: each is the latest
  // second, with the run so far underneath.
  function showLastSecond(f) {
    var last = "last second", has = f.rq > 0, lat = has && latency() && (f.n === undefined || f.n > 0);
    setCard("rps", last, LL.fmtNum(LL.perSecond(f.rq, f.w)), LL.fmtCount(store.totalRq) + " " + unit.many + " so far");
    setCard("p95", last, LL.fmtMs(lat ? f.p95 : null), "p50 " + LL.fmtMs(lat ? f.p50 : null) + " · p99 " + LL.fmtMs(lat ? f.p99 : null));
    setCard("err", last, LL.fmtPct(has ? f.er / f.rq : 0), LL.fmtCount(store.totalEr) + " failed so far (" +
      LL.fmtPct(store.totalRq > 0 ? store.totalEr / store.totalRq : 0) + ")", f.er > 0);
    setCard("vus", last, String(f.vu), "of " + f.vx + " allocated");
    setCard("dropped", "so far", LL.fmtCount(store.totalDr), store.totalDr > 0 ? "iterations without a free VU" : "iterations", store.totalDr > 0);
    setCard("cpu", last, f.cpu === undefined || f.cpu === null ? "-" : LL.fmtShare(f.cpu / 100), "of " + meta.cpus + " cores", f.cpu > 85);
  }

  // showWholeRun fills the cards once the run has ended, from the end
  // event's figures of the whole run (report.RunFigures).
  function showWholeRun(r) {
    var whole = "whole run", has = r.rq > 0, lat = has && latency();
    setCard("rps", whole, r.rps > 0 ? LL.fmtNum(r.rps) : "-", LL.fmtCount(r.rq) + " " + unit.many + " in " + LL.fmtMs(1000 * r.elapsed_s));
    setCard("p95", whole, LL.fmtMs(lat ? r.p95 : null), "p50 " + LL.fmtMs(lat ? r.p50 : null) + " · p99 " + LL.fmtMs(lat ? r.p99 : null));
    setCard("err", whole, LL.fmtPct(has ? r.er / r.rq : 0), LL.fmtCount(r.er) + " of " + LL.fmtCount(r.rq) + " failed", r.er > 0);
    setCard("vus", whole, String(r.vx), "allocated at most" + (r.vu > 0 ? " · " + r.vu + " active at most" : ""));
    setCard("dropped", whole, LL.fmtCount(r.dr), r.dr > 0 ? "iterations without a free VU" : "iterations", r.dr > 0);
    var cpu = r.cpu_avg === undefined || r.cpu_avg === null;
    setCard("cpu", whole, cpu ? "-" : LL.fmtShare(r.cpu_avg / 100), cpu ? "of " + meta.cpus + " cores" :
      "average · peak " + LL.fmtShare(r.cpu_peak / 100) + " of " + meta.cpus + " cores", !cpu && r.cpu_peak > 85);
  }

  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; refresh(); });
  }

  function finish(fin) {
    ended = true;
    final = fin;
    if (fin.endpoints) table = fin.endpoints;
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
    $("thresholds").tHead.rows[0].cells[3].textContent = "Whole run";
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
      obs.cover(f);
      schedule();
    });
    es.addEventListener("diagnosis", function (e) { if (store && !ended) showDiagnosis(JSON.parse(e.data), false); });
    es.addEventListener("endpoints", function (e) {
      if (!store || ended) return;
      table = JSON.parse(e.data);
      schedule();
    });
    es.addEventListener("end", function (e) { es.close(); finish(JSON.parse(e.data)); });
    es.onerror = function () {
      if (ended) return;
      $("conn").textContent = "reconnecting…";
      $("conn").hidden = false;
    };
  }
  connect();
})();
