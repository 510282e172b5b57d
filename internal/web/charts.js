// loadlens chart panels, shared by the live dashboard and report.html.
// Everything from a run (names, messages) reaches the page as data and is
// put into the DOM with textContent only, never as HTML.
(function () {
  "use strict";
  var LL = (window.LL = {});

  // el makes an element with an optional class and text.
  LL.el = function (tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };

  // The formatters below follow internal/units, the rules every page's Go
  // code formats figures by (docs/figures.md); web's tests run them in node
  // against the Go functions, so a figure reads the same in a script.

  // group puts thousands separators into a formatted number.
  function group(s) {
    var sign = s.charAt(0) === "-" ? "-" : "", rest = sign ? s.slice(1) : s;
    var dot = rest.indexOf("."), whole = dot < 0 ? rest : rest.slice(0, dot), frac = dot < 0 ? "" : rest.slice(dot);
    return sign + whole.replace(/\B(?=(\d{3})+$)/g, ",") + frac;
  }

  function missing(v) { return v === null || v === undefined || typeof v !== "number" || !isFinite(v); }

  // fmtNum formats a quantity: three significant digits, never fewer than
  // the whole number, thousands separated (units.Number).
  LL.fmtNum = function (v) {
    if (missing(v)) return "-";
    var a = Math.abs(v), d = 0;
    if (a === 0 || a >= 100) d = 0;
    else if (a >= 10) d = 1;
    else if (a >= 1) d = 2;
    else d = Math.min(100, 2 - Math.floor(Math.log10(a)));
    var s = v.toFixed(d);
    if (d > 0) s = s.replace(/0+$/, "").replace(/\.$/, "");
    if (s === "-0") s = "0";
    return group(s);
  };

  // fmtCount formats a whole count with thousands separators (units.Count).
  LL.fmtCount = function (v) { return missing(v) ? "-" : group(Math.round(v).toFixed(0)); };

  // fmtNumAxis labels an axis tick compactly: 950, 1.2k, 3.4M.
  LL.fmtNumAxis = function (v) {
    if (missing(v)) return "-";
    var a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e4) return (v / 1e3).toFixed(0) + "k";
    if (a >= 1e3) return (v / 1e3).toFixed(1) + "k";
    if (a >= 10 || v === Math.round(v)) return v.toFixed(0);
    return v.toFixed(1);
  };

  // ticks labels an axis's ticks (uPlot's splits, all of them at once) in
  // one unit — the largest of units, [divisor, suffix] pairs in ascending
  // order, that the biggest tick reaches — with as many decimals as their
  // step needs and no more: ticks 0.05 apart read 0.05, 0.1, 0.15, never
  // 0.1, 0.1, 0.2, and no two ticks read the same.
  LL.ticks = function (vals, units) {
    var top = 0, u = units[0];
    vals.forEach(function (v) { if (isFinite(v)) top = Math.max(top, Math.abs(v)); });
    units.forEach(function (c) { if (top >= c[0]) u = c; });
    var xs = vals.map(function (v) { return v / u[0]; }), d = 0;
    var exact = function (x) { return !isFinite(x) || Math.abs(+x.toFixed(d) - x) <= 1e-9 * Math.max(1, Math.abs(x)); };
    while (d < 9 && !xs.every(exact)) d++;
    return xs.map(function (x) {
      if (!isFinite(x)) return "";
      var s = String(+x.toFixed(d));
      return s === "0" ? "0" : group(s) + u[1];
    });
  };

  // numTicks, msTicks and bytesTicks label the ticks of an axis of plain
  // numbers (950, 1.5k, 3M), of milliseconds and of bytes (LL.ticks).
  LL.numTicks = function (vals) { return LL.ticks(vals, [[1, ""], [1e3, "k"], [1e6, "M"]]); };
  LL.msTicks = function (vals) { return LL.ticks(vals, [[1e-3, "µs"], [1, "ms"], [1e3, "s"]]); };
  LL.bytesTicks = function (vals) { return LL.ticks(vals, [[1, " B"], [1e3, " kB"], [1e6, " MB"], [1e9, " GB"], [1e12, " TB"]]); };

  // fmtMs formats milliseconds as a duration (units.Duration): 950µs,
  // 2.35ms, 23.5ms, 235ms, 1.25s, then 1m5s, 10m, 1h30m.
  LL.fmtMs = function (ms) {
    if (missing(ms)) return "-";
    if (ms < 0) return "-" + LL.fmtMs(-ms);
    if (ms === 0) return "0s";
    if (Math.round(ms * 1000) < 1000) return (ms * 1000).toFixed(0) + "µs";
    if (Math.round(ms * 100) < 1000) return ms.toFixed(2) + "ms";
    if (Math.round(ms * 10) < 1000) return ms.toFixed(1) + "ms";
    if (Math.round(ms) < 1000) return ms.toFixed(0) + "ms";
    if (Math.round(ms / 10) < 6000) return (ms / 1000).toFixed(2) + "s";
    var s = Math.round(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    var out = (h > 0 ? h + "h" + m + "m" : m + "m") + (s % 60) + "s";
    if (/m0s$/.test(out)) out = out.slice(0, -2);
    if (/h0m$/.test(out)) out = out.slice(0, -2);
    return out;
  };

  // fmtMsAxis formats axis ticks of milliseconds without needless decimals.
  LL.fmtMsAxis = function (ms) {
    if (ms <= 0) return "0";
    if (ms < 1) return Math.round(ms * 1000) + "µs";
    if (ms < 10) return +ms.toFixed(1) + "ms";
    if (ms < 1000) return Math.round(ms) + "ms";
    return +(ms / 1000).toFixed(2) + "s";
  };

  // fmtElapsed formats seconds since the start as m:ss or h:mm:ss (units.Clock).
  LL.fmtElapsed = function (s) {
    if (s === null || s === undefined) return "-";
    s = Math.round(s);
    var sign = s < 0 ? "-" : "";
    s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = s % 60;
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return sign + (h > 0 ? h + ":" + pad(m) + ":" + pad(ss) : m + ":" + pad(ss));
  };

  // fmtBytes formats a byte count in SI units (units.Bytes).
  LL.fmtBytes = function (v) {
    if (missing(v)) return "-";
    var sign = v < 0 ? "-" : "", f = Math.abs(v);
    if (f < 1000) return sign + f.toFixed(0) + " B";
    var units = ["kB", "MB", "GB"];
    for (var i = 0; i < units.length; i++) {
      f /= 1000;
      if (f < 999.95) return sign + f.toFixed(1) + " " + units[i];
    }
    return sign + (f / 1000).toFixed(1) + " TB";
  };

  // fmtPct formats a rate as a percentage with two decimals (units.Percent).
  LL.fmtPct = function (r) { return missing(r) ? "-" : (100 * r).toFixed(2) + "%"; };

  // fmtShare formats a part of a whole at the precision of its size (units.Share).
  LL.fmtShare = function (r) { return missing(r) ? "-" : LL.fmtNum(100 * r) + "%"; };

  // fmtCores formats CPU cores (units.Cores).
  LL.fmtCores = function (n) { return missing(n) ? "-" : n === 1 ? "1 core" : LL.fmtNum(n) + " cores"; };

  // Store keeps the per-second frames of a run as columns, which is how
  // uPlot takes its data. Frame fields: see report.Frame.
  LL.Store = function (meta) {
    this.meta = meta;
    this.t = []; this.rq = []; this.er = [];
    this.p50 = []; this.p90 = []; this.p95 = []; this.p99 = []; this.max = [];
    this.vu = []; this.vx = []; this.dr = []; this.lag = []; this.cpu = []; this.rx = []; this.tx = [];
    this.e = meta.endpoints.map(function () { return { rq: [], er: [], p50: [], p95: [], p99: [], totalRq: 0, totalEr: 0 }; });
    this.totalRq = 0; this.totalEr = 0; this.totalDr = 0;
    this.last = null;
  };

  // isolatedPoints is uPlot's points filter for a series drawn as a line:
  // the samples with no sample beside them, which a line cannot draw (a run
  // whose every request ended in its last second charted nothing), or null
  // when the series shows all its points anyway.
  LL.isolatedPoints = function (u, si, show) {
    if (show) return null;
    var d = u.data[si], out = [];
    var none = function (k) { return k < 0 || k >= d.length || d[k] === null || d[k] === undefined; };
    for (var i = 0; i < d.length; i++) {
      if (!none(i) && none(i - 1) && none(i + 1)) out.push(i);
    }
    return out.length ? out : null;
  };

  // perSecond is the rate of n counted in a second of which the run lasted
  // the share w (report.Frame.Covered; 0 or missing: all of it). A last
  // second cut short charts nothing (null; metrics.MinCovered): its count
  // would chart a drop, and its count over w a spike (the graceful stop's
  // answers are completions, not arrivals). The totals keep it. The same
  // rule is report.perSecond's, for compare.
  LL.perSecond = function (n, w) {
    return w > 0 && w < 1 ? null : n;
  };

  // push adds a frame. Its counts go into the totals as they are; the
  // per-second columns are rates (LL.perSecond).
  LL.Store.prototype.push = function (f) {
    var lat = function (v, n) { return n > 0 ? v : null; }; // no requests: no latency, not 0
    var rate = function (n) { return LL.perSecond(n, f.w); };
    // n: the durations behind the merged percentiles; sessions' ends alone are none (report.Frame.Latencies)
    var n = f.n === undefined ? f.rq : f.n;
    this.t.push(f.t); this.rq.push(rate(f.rq)); this.er.push(rate(f.er));
    this.p50.push(lat(f.p50, n)); this.p90.push(lat(f.p90, n)); this.p95.push(lat(f.p95, n));
    this.p99.push(lat(f.p99, n)); this.max.push(lat(f.max, n));
    this.vu.push(f.vu); this.vx.push(f.vx); this.dr.push(rate(f.dr)); this.lag.push(f.lag);
    this.cpu.push(f.cpu === undefined ? null : f.cpu);
    this.rx.push(rate(f.rx || 0)); this.tx.push(rate(f.tx || 0));
    for (var i = 0; i < this.e.length; i++) {
      var v = (f.e && f.e[i]) || [0, 0, 0, 0, 0], s = this.e[i];
      s.rq.push(rate(v[0])); s.er.push(rate(v[1])); s.totalRq += v[0]; s.totalEr += v[1];
      s.p50.push(lat(v[2], v[0])); s.p95.push(lat(v[3], v[0])); s.p99.push(lat(v[4], v[0]));
    }
    this.totalRq += f.rq; this.totalEr += f.er; this.totalDr += f.dr;
    this.last = f;
  };

  // sum adds the columns col of the endpoints eps, second by second.
  LL.Store.prototype.sum = function (eps, col) {
    var out = new Array(this.t.length).fill(0), e = this.e;
    eps.forEach(function (i) { var c = e[i][col]; for (var k = 0; k < c.length; k++) out[k] += c[k]; });
    return out;
  };

  // endpointLabel names an endpoint, with its scenario when there are several.
  // LL.unitOf is what a run's samples count (report.PageUnit: requests, gRPC
  // calls, sessions), requests for a page whose meta names none.
  LL.unitOf = function (meta) {
    var u = meta && meta.unit;
    return u && u.many ? u : { one: "request", many: "requests", short: "req", count: "Requests", rate: "RPS" };
  };

  LL.endpointLabel = function (meta, i) {
    var ep = meta.endpoints[i];
    return meta.scenarios.length > 1 ? meta.scenarios[ep.scenario] + " · " + ep.name : ep.name;
  };

  var colors = { rq: "#2563eb", er: "#dc2626", p50: "#16a34a", p90: "#0891b2", p95: "#ca8a04", p99: "#ea580c",
    max: "#9333ea", vu: "#2563eb", vx: "#94a3b8", dr: "#dc2626", lag: "#0d9488", cpu: "#7c3aed", rx: "#0891b2", tx: "#ca8a04" };

  // charts lists every chart drawn, so tests (and curious users in the
  // console) can see what each holds.
  LL.charts = [];

  // syncKey joins the cursors of every chart on the run's clock: hovering
  // one second shows it on all of them, client and server side by side.
  LL.syncKey = "loadlens-run-clock";

  // Panel is one chart with a title and an optional selector; build()
  // returns uPlot series and data for the current selection. Charts whose
  // x axis is the run's clock (all but the spectrum) share the cursor and
  // show the findings.
  function Panel(parent, title, build, opts) {
    opts = opts || {};
    this.build = build;
    this.opts = opts;
    this.box = LL.el("section", "panel");
    var head = LL.el("div", "panel-head");
    head.appendChild(LL.el("h3", null, title));
    if (opts.choices && opts.choices.length > 1) {
      this.select = LL.el("select");
      this.select.setAttribute("aria-label", title + ": what to show");
      opts.choices.forEach(function (c, i) {
        var o = LL.el("option", null, c.label);
        o.value = String(i);
        this.select.appendChild(o);
      }, this);
      var self = this;
      this.select.addEventListener("change", function () { self.rebuild(); });
      head.appendChild(this.select);
    }
    this.box.appendChild(head);
    if (opts.note) this.box.appendChild(LL.el("p", "panel-note", opts.note));
    this.plot = LL.el("div", "plot");
    this.box.appendChild(this.plot);
    parent.appendChild(this.box);
    this.title = title;
    this.hover = false;
    this.rebuild();
    LL.charts.push(this);
  }

  LL.Panel = Panel;

  Panel.prototype.choice = function () {
    return this.opts.choices ? this.opts.choices[this.select ? +this.select.value : 0] : null;
  };

  Panel.prototype.width = function () {
    return Math.max(200, this.plot.clientWidth || this.box.clientWidth - 24 || 600);
  };

  Panel.prototype.rebuild = function () {
    if (this.u) this.u.destroy();
    var b = this.build(this.choice()), self = this;
    this.key = b.key;
    var axes = [
      { stroke: "#475569", grid: { stroke: "#eef2f7" }, ticks: { stroke: "#e2e8f0" },
        values: b.xValues || function (u, vals) { return vals.map(LL.fmtElapsed); }, splits: b.xSplits },
      { stroke: "#475569", grid: { stroke: "#eef2f7" }, ticks: { stroke: "#e2e8f0" }, size: 62,
        values: function (u, vals) { return (b.ticks || LL.numTicks)(vals); } },
    ];
    if (!b.xSplits) axes[0].incrs = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
    var series = [{ label: b.xLabel || "elapsed", value: function (u, v) { return v === null ? "-" : (b.xFmt || LL.fmtElapsed)(v); } }];
    b.series.forEach(function (s) {
      series.push({ label: s.label, stroke: s.color, width: s.width || 1.5, fill: s.fill, dash: s.dash, spanGaps: false,
        points: { show: s.points || false, size: 5, filter: LL.isolatedPoints }, value: function (u, v) { return v === null || v === undefined ? "-" : (b.fmt || LL.fmtNum)(v); } });
    });
    this.timeAxis = !b.xSplits;
    var cursor = { points: { size: 6 }, drag: { x: true, y: false } };
    var hooks = { setCursor: [function (u) { if (u.cursor.idx === null || u.cursor.idx === undefined) self.showLast(); }] };
    if (this.timeAxis) {
      cursor.sync = { key: LL.syncKey, setSeries: false };
      hooks.drawClear = [function (u) { LL.drawFindings(u, self.key); }]; // findings.js
    }
    var opts = {
      width: this.width(), height: this.opts.height || 210, padding: [12, b.xSplits ? 36 : 16, 0, 0],
      scales: {
        x: { time: false, range: function (u, min, max) {
          var hi = b.xMax ? b.xMax() : max;
          return [b.xMin !== undefined ? b.xMin : 0, Math.max(hi === null || isNaN(hi) ? 1 : hi, (min || 0) + 1)];
        } },
        y: { range: b.yRange || function (u, min, max) { return [0, max > 0 ? max * 1.08 : 1]; } },
      },
      axes: axes, series: series,
      legend: { live: true },
      cursor: cursor,
      hooks: hooks,
    };
    this.u = new uPlot(opts, b.data(), this.plot);
    this.data = b.data;
    this.showLast();
  };

  // showLast puts the latest values into the legend while the mouse is elsewhere.
  Panel.prototype.showLast = function () {
    var n = this.u && this.u.data[0] ? this.u.data[0].length : 0;
    if (n > 0 && this.u.cursor.left < 0) this.u.setLegend({ idx: n - 1 });
  };

  Panel.prototype.update = function () {
    this.u.setData(this.data());
    this.showLast();
  };

  Panel.prototype.resize = function () {
    this.u.setSize({ width: this.width(), height: this.opts.height || 210 });
  };

  // points is how many points the chart's first series holds (for tests).
  Panel.prototype.points = function () {
    var d = this.u.data, n = 0;
    for (var i = 1; i < d.length; i++) d[i].forEach(function (v) { if (v !== null && v !== undefined) n++; });
    return n;
  };

  // selections lists what the traffic panels can show: all endpoints, each
  // scenario (when there are several) and each endpoint.
  function selections(meta, withScenarios) {
    var all = meta.endpoints.map(function (_, i) { return i; });
    var out = [{ label: "all endpoints", eps: all, all: true }];
    if (withScenarios && meta.scenarios.length > 1) {
      meta.scenarios.forEach(function (name, s) {
        out.push({ label: "scenario " + name, eps: all.filter(function (i) { return meta.endpoints[i].scenario === s; }) });
      });
    }
    if (meta.endpoints.length > 1) {
      all.forEach(function (i) { out.push({ label: LL.endpointLabel(meta, i), eps: [i] }); });
    }
    return out;
  }

  // latencyNote says what the latency panel draws (report.PageMeta.Latency):
  // a run of sessions alone charts how long they lasted, as it has no other latency.
  function latencyNote(meta, unit) {
    if (meta.latency === "sessions") {
      return "How long the sessions that ended in each second lasted, timed from the intended start to the close.";
    }
    if (meta.latency === "calls") return "Duration of each second's calls, timed from the intended start.";
    return (unit.many === "requests" ? "Request duration of each second" :
      "Duration of each second's " + unit.many) + ", timed from the intended start.";
  }

  // timePanels draws the time-series panels of a run into parent. xMax
  // returns the right end of the time axis (the planned length while live).
  // clientOnly leaves out the generator's own panels (scheduler lag, bytes,
  // CPU) for pages that chart the generator's series in a group of their own.
  LL.timePanels = function (parent, store, xMax, clientOnly) {
    var meta = store.meta, panels = [], unit = LL.unitOf(meta);
    var counted = unit.many.charAt(0).toUpperCase() + unit.many.slice(1);
    panels.push(new Panel(parent, counted + " and errors per second", function (c) {
      return { key: "throughput", xMax: xMax, series: [
        { label: unit.many + "/s", color: colors.rq, fill: "rgba(37,99,235,0.08)" },
        { label: "errors/s", color: colors.er, fill: "rgba(220,38,38,0.10)" }],
        data: function () {
          if (c.all) return [store.t, store.rq, store.er];
          return [store.t, store.sum(c.eps, "rq"), store.sum(c.eps, "er")];
        } };
    }, { choices: selections(meta, true), note: unit.many === "requests" ? "Requests completed in each second; errors are transport failures and 4xx/5xx answers." :
      counted + " completed in each second; errors are the failed ones: transport failures, a gRPC status other than OK, a refused handshake." }));
    var sessions = meta.latency === "sessions";
    panels.push(new Panel(parent, sessions ? "Session length percentiles" : "Latency percentiles", function (c) {
      if (c.all) {
        return { key: "latency", xMax: xMax, fmt: LL.fmtMs, ticks: LL.msTicks, series: [
          { label: "p50", color: colors.p50 }, { label: "p90", color: colors.p90 }, { label: "p95", color: colors.p95 },
          { label: "p99", color: colors.p99 }, { label: "max", color: colors.max, width: 1, dash: [4, 3] }],
          data: function () { return [store.t, store.p50, store.p90, store.p95, store.p99, store.max]; } };
      }
      var e = store.e[c.eps[0]];
      return { key: "latency", xMax: xMax, fmt: LL.fmtMs, ticks: LL.msTicks, series: [
        { label: "p50", color: colors.p50 }, { label: "p95", color: colors.p95 }, { label: "p99", color: colors.p99 }],
        data: function () { return [store.t, e.p50, e.p95, e.p99]; } };
    }, { choices: selections(meta, false), note: latencyNote(meta, unit) }));
    panels.push(new Panel(parent, "Virtual users and dropped iterations", function () {
      return { key: "vus", xMax: xMax, series: [
        { label: "active VUs", color: colors.vu, fill: "rgba(37,99,235,0.08)" },
        { label: "allocated VUs", color: colors.vx, dash: [4, 3] },
        { label: "dropped/s", color: colors.dr }],
        data: function () { return [store.t, store.vu, store.vx, store.dr]; } };
    }, { note: "Dropped: iterations that were due but found no free VU; the target was offered less than planned." }));
    if (clientOnly) {
      LL.watchResize(panels);
      return panels;
    }
    panels.push(new Panel(parent, "Scheduler lag (p99)", function () {
      return { key: "lag", xMax: xMax, fmt: LL.fmtMs, ticks: LL.msTicks, series: [{ label: "lag p99", color: colors.lag }],
        data: function () { return [store.t, store.lag]; } };
    }, { note: "How late iterations started against their schedule, in the generator." }));
    panels.push(new Panel(parent, "Data transferred per second", function () {
      return { key: "bytes", xMax: xMax, fmt: function (v) { return LL.fmtBytes(v) + "/s"; }, ticks: LL.bytesTicks, series: [
        { label: "received", color: colors.rx, fill: "rgba(8,145,178,0.08)" },
        { label: "sent", color: colors.tx }],
        data: function () { return [store.t, store.rx, store.tx]; } };
    }, { note: "Bytes of the responses received and the requests sent." }));
    var cpus = meta.cpus || 1;
    panels.push(new Panel(parent, "Generator CPU", function () {
      return { key: "cpu", xMax: xMax, fmt: function (v) { return LL.fmtShare(v / 100); },
        ticks: function (vals) { return LL.ticks(vals, [[1, "%"]]); },
        yRange: function () { return [0, 100]; },
        series: [{ label: "CPU of " + cpus + " cores", color: colors.cpu, fill: "rgba(124,58,237,0.08)" }],
        data: function () { return [store.t, store.cpu]; } };
    }, { note: "loadlens's own CPU use; near 100% the generator, not the target, may be the limit." }));
    LL.watchResize(panels);
    return panels;
  };

  // spectrumX maps a percentile to the log scale HdrHistogram plots on:
  // 0 → 0, 90 → 1, 99 → 2, 99.9 → 3, and 100 just past the last sample.
  function spectrumX(p, count, prev) {
    if (p >= 100) return Math.max(prev + 0.15, Math.log10(Math.max(count, 1)));
    return -Math.log10(1 - p / 100);
  }

  // spectrumPanel draws the latency distribution of the whole run: the
  // percentile spectrum on a log scale, for all endpoints or one.
  LL.spectrumPanel = function (parent, spectra) {
    var choices = spectra.map(function (s, i) { return { label: s.label, i: i }; });
    var p = new Panel(parent, "Percentile spectrum of request duration", function (c) {
      var s = spectra[c.i], xs = [], prev = 0;
      s.p.forEach(function (pc) { prev = spectrumX(pc, s.n, prev); xs.push(prev); });
      var top = Math.ceil(xs.length ? xs[xs.length - 1] : 1);
      var splits = []; for (var k = 0; k <= top; k++) splits.push(k);
      var label = function (x) {
        if (x <= 0) return "0%";
        var nines = Math.round(x);
        return (100 - 100 / Math.pow(10, nines)).toFixed(Math.max(0, nines - 2)) + "%";
      };
      var pctAt = function (x) {
        for (var k = 0; k < xs.length; k++) if (xs[k] === x) return s.p[k];
        return null;
      };
      return { key: "spectrum", xMin: 0, xMax: function () { return top; }, fmt: LL.fmtMs, ticks: LL.msTicks,
        xLabel: "percentile", xFmt: function (x) { var pc = pctAt(x); return pc === null ? "-" : String(+pc.toFixed(4)) + "%"; },
        xSplits: function () { return splits; }, xValues: function (u, vals) { return vals.map(label); },
        series: [{ label: "latency", color: colors.p99, fill: "rgba(234,88,12,0.08)", width: 2 }],
        data: function () { return [xs, s.v]; } };
    }, { choices: choices, height: 260,
      note: "Each point: the latency that this percentage of requests stayed under. The axis stretches the tail: 90%, 99%, 99.9%, …" });
    LL.watchResize([p]);
    return p;
  };

  // watchResize keeps panels as wide as their boxes.
  LL.watchResize = function (panels) {
    if (!window.ResizeObserver) return;
    var ro = new ResizeObserver(function () { panels.forEach(function (p) { p.resize(); }); });
    panels.forEach(function (p) { ro.observe(p.box); });
  };

  // sortable makes a table's columns sort on a click of their header;
  // cells carry their sort key in data-v (numbers) or their text.
  LL.sortable = function (table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, col) {
      th.classList.add("sortable");
      th.setAttribute("tabindex", "0");
      var sort = function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var desc = th.getAttribute("aria-sort") !== "descending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", desc ? "descending" : "ascending");
        var key = function (r) {
          var c = r.cells[col], v = c.getAttribute("data-v");
          return v !== null ? parseFloat(v) : c.textContent.toLowerCase();
        };
        rows.sort(function (a, b) {
          var x = key(a), y = key(b), r = x < y ? -1 : x > y ? 1 : 0;
          return desc ? -r : r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  };
})();
