// loadlens server charts: the series scraped from the target's Prometheus
// endpoints and the generator's own, grouped by target, one chart per
// metric family, on the run's clock beside the client's charts. Shared by
// the live dashboard and report.html; what a series is and where it goes
// (report.SeriesMeta) is decided in Go, this only draws it.
(function () {
  "use strict";
  var LL = window.LL;

  var palette = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#4f46e5", "#0d9488", "#dc2626"];
  var limitColor = "#64748b";

  // Observed keeps the observed series as columns: meta and points by id.
  LL.Observed = function () {
    this.meta = [];
    this.cols = [];
    this.covered = {}; // second → the share of it the run lasted, when less than all (report.Frame.Covered)
  };

  // cover notes a frame's covered share, by which a last second cut short
  // divides the counts of series that are per second (SeriesMeta.PerSec).
  LL.Observed.prototype.cover = function (f) {
    if (f && f.w > 0 && f.w < 1) this.covered[f.t] = f.w;
  };

  // add takes a report.ObservedDelta: new series, then new points.
  LL.Observed.prototype.add = function (d) {
    if (!d) return;
    var self = this;
    (d.n || []).forEach(function (m) {
      self.meta[m.id] = m;
      if (!self.cols[m.id]) self.cols[m.id] = { s: [], v: [] };
    });
    (d.p || []).forEach(function (p) {
      var c = self.cols[p.i];
      if (!c) c = self.cols[p.i] = { s: [], v: [] };
      for (var k = 0; k < p.s.length; k++) { c.s.push(p.s[k]); c.v.push(p.v[k]); }
    });
  };

  // hasGenerator reports whether the generator's own series are here.
  LL.Observed.prototype.hasGenerator = function () {
    return this.meta.some(function (m) { return m && m.gen; });
  };

  // lastSec is the latest second any series has a point at, or -1.
  LL.Observed.prototype.lastSec = function () {
    var last = -1;
    this.cols.forEach(function (c) { if (c && c.s.length) last = Math.max(last, c.s[c.s.length - 1]); });
    return last;
  };

  // format returns the value formatter and the axis's tick labeller
  // (LL.ticks) for a unit (report.SeriesMeta.Unit).
  function format(unit) {
    var scaled = function (k, units) { return function (vals) { return LL.ticks(vals.map(function (v) { return v * k; }), units); }; };
    switch (unit) {
      case "bytes": return { fmt: LL.fmtBytes, ticks: LL.bytesTicks };
      case "seconds": return { fmt: function (v) { return LL.fmtMs(v * 1000); }, ticks: function (vals) { return LL.msTicks(vals.map(function (v) { return v * 1000; })); } };
      case "ratio": return { fmt: LL.fmtShare, ticks: scaled(100, [[1, "%"]]) };
      case "cores": return { fmt: LL.fmtCores, ticks: scaled(1, [[1, ""]]) };
    }
    return { fmt: LL.fmtNum, ticks: LL.numTicks };
  }

  // column returns one series' points keyed by second, with a null (a
  // break in the line) after a point that the next one follows much later
  // than the series' usual step: a target that could not be scraped.
  function column(c, perSec, covered) {
    var step = Infinity, out = new Map();
    for (var k = 1; k < c.s.length; k++) step = Math.min(step, c.s[k] - c.s[k - 1] || Infinity);
    for (k = 0; k < c.s.length; k++) {
      out.set(c.s[k], perSec && c.v[k] !== null ? LL.perSecond(c.v[k], covered[c.s[k]]) : c.v[k]);
      if (k + 1 < c.s.length && step < Infinity && c.s[k + 1] - c.s[k] > Math.max(2.5 * step, 2)) out.set(c.s[k] + step, null);
    }
    return out;
  }

  // align puts the series of one chart on one x column: every second any
  // of them has; a series without a point there gets undefined, which
  // uPlot joins across, while null breaks the line.
  function align(obs, ids) {
    var cols = ids.map(function (id) { return column(obs.cols[id], obs.meta[id].ps, obs.covered); }), xs = new Set();
    cols.forEach(function (c) { c.forEach(function (_, x) { xs.add(x); }); });
    var x = Array.from(xs).sort(function (a, b) { return a - b; });
    var data = [x];
    cols.forEach(function (c) { data.push(x.map(function (s) { return c.has(s) ? c.get(s) : undefined; })); });
    return data;
  }

  // yRange keeps zero in view and leaves headroom above the highest value.
  function yRange(u, min, max) {
    var lo = Math.min(0, min === null || isNaN(min) ? 0 : min);
    return [lo, max > 0 ? max * 1.08 : lo < 0 ? 0 : 1];
  }

  // Group is the charts of one target (or of the generator) under a
  // heading: the target's name, its role and how its scrapes went.
  function Group(parent, meta) {
    this.key = meta.group;
    this.gen = !!meta.gen;
    this.role = meta.role || "";
    this.charts = {};
    this.box = LL.el("section", "obs-group");
    this.box.setAttribute("data-group", meta.group);
    if (!this.gen) { // the generator's section is its only group: its heading says it all
      var head = LL.el("div", "obs-head");
      head.appendChild(LL.el("h3", null, meta.group));
      this.status = LL.el("span", "obs-status");
      head.appendChild(this.status);
      this.box.appendChild(head);
    }
    this.grid = LL.el("div", "grid obs-grid");
    this.box.appendChild(this.grid);
    insertSorted(parent, this.box, function (el) { return el.getAttribute("data-group"); }, meta.group);
  }

  // common returns the label parts every series of ids shares.
  function common(obs, ids) {
    var first = obs.meta[ids[0]].parts || [];
    return first.filter(function (p) { return ids.every(function (id) { return (obs.meta[id].parts || []).indexOf(p) >= 0; }); });
  }

  // legend names a series in its chart: its family's label and the label
  // values that tell it from the chart's other series.
  function legend(m, shared) {
    var parts = (m.base ? [m.base] : []).concat((m.parts || []).filter(function (p) { return shared.indexOf(p) < 0; }));
    return parts.length ? parts.join(" · ") : m.name;
  }

  // fewPoints shows a series' points while it has too few for a line.
  function fewPoints(u, si) {
    var n = 0, d = u.data[si];
    for (var k = 0; k < d.length && n < 3; k++) if (d[k] !== null && d[k] !== undefined) n++;
    return n < 3;
  }

  // insertSorted puts el among parent's children in the order of key.
  function insertSorted(parent, el, keyOf, key) {
    var before = null;
    Array.prototype.some.call(parent.children, function (c) {
      if (c !== el && keyOf(c) > key) { before = c; return true; }
      return false;
    });
    parent.insertBefore(el, before);
  }

  // chartOrder sorts charts by their family's rank, then title.
  function chartOrder(m) { return ("000" + m.rank).slice(-3) + " " + m.title; }

  // ObservedView draws the observed series: the target's groups into
  // server, the generator's into generator. sync() adds charts for new
  // series and redraws the rest; call it whenever obs grew.
  LL.ObservedView = function (server, generator, obs, xMax) {
    this.server = server;
    this.generator = generator;
    this.obs = obs;
    this.xMax = xMax;
    this.groups = {};
    this.placed = [];
    this.panels = [];
  };

  LL.ObservedView.prototype.sync = function () {
    var self = this, rebuild = [];
    this.obs.meta.forEach(function (m) {
      if (!m || self.placed[m.id]) return;
      self.placed[m.id] = true;
      var parent = m.gen ? self.generator : self.server;
      if (!parent) return;
      var g = self.groups[m.group] || (self.groups[m.group] = new Group(parent, m));
      if (m.up) {
        g.up = m.id;
        return;
      }
      var c = g.charts[m.chart];
      if (c) {
        c.ids.push(m.id);
        c.ids.sort(function (a, b) { return self.obs.meta[a].order - self.obs.meta[b].order || a - b; });
        if (rebuild.indexOf(c) < 0) rebuild.push(c);
        return;
      }
      c = g.charts[m.chart] = { ids: [m.id], meta: m };
      c.panel = self.chart(g, c);
      self.panels.push(c.panel);
      LL.watchResize([c.panel]);
    });
    rebuild.forEach(function (c) { c.panel.rebuild(); });
    this.panels.forEach(function (p) { if (rebuild.every(function (c) { return c.panel !== p; })) p.update(); });
    Object.keys(this.groups).forEach(function (k) { self.status(self.groups[k]); });
  };

  // chart makes the panel of one metric family in group g. The label
  // values all its series share go into its title; the first series, the
  // most telling of its family, is drawn wider so it shows under others
  // of the same value.
  LL.ObservedView.prototype.chart = function (g, c) {
    var obs = this.obs, xMax = this.xMax, f = format(c.meta.unit), p;
    p = new LL.Panel(g.grid, c.meta.title, function () {
      var colors = 0, shared = common(obs, c.ids);
      if (p) {
        p.title = [c.meta.title].concat(shared).join(" · ");
        p.box.querySelector("h3").textContent = p.title;
        p.box.setAttribute("data-series", c.ids.map(function (id) { return obs.meta[id].key; }).join("\n"));
      }
      return { key: "obs:" + c.meta.group + ":" + c.meta.chart, xMax: xMax, fmt: f.fmt, ticks: f.ticks, yRange: yRange,
        series: c.ids.map(function (id, k) {
          var m = obs.meta[id], label = legend(m, shared);
          if (m.limit) return { label: label, color: limitColor, width: 1.25, dash: [5, 4], points: fewPoints };
          return { label: label, color: palette[colors++ % palette.length], width: k === 0 && c.ids.length > 1 ? 2.5 : 1.5, points: fewPoints };
        }),
        data: function () { return align(obs, c.ids); } };
    });
    p.rebuild(); // again, now that p exists, to set the title from the labels
    p.box.setAttribute("data-order", chartOrder(c.meta));
    insertSorted(g.grid, p.box, function (el) { return el.getAttribute("data-order") || ""; }, chartOrder(c.meta));
    return p;
  };

  // status says under a group's heading how its scrapes went, from its
  // up series: how many, how often, and how many failed from when.
  LL.ObservedView.prototype.status = function (g) {
    if (g.gen) return;
    var text = g.role ? "role " + g.role : "";
    var c = g.up === undefined ? null : this.obs.cols[g.up], failed = 0;
    if (c) {
      var n = c.s.length, firstFail = null, step = Infinity;
      for (var k = 0; k < n; k++) {
        if (c.v[k] === 0) { failed++; if (firstFail === null) firstFail = c.s[k]; }
        if (k > 0) step = Math.min(step, c.s[k] - c.s[k - 1] || Infinity);
      }
      text += (text ? " · " : "") + n + (n === 1 ? " scrape" : " scrapes") + (step < Infinity ? ", every " + step + " s" : "");
      if (failed > 0) text += " · " + (failed === n ? "all" : failed) + " failed, the first at " + LL.fmtElapsed(firstFail);
    }
    g.status.textContent = text;
    g.status.classList.toggle("bad", failed > 0);
  };
})();
