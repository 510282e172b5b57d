// capacity.html: throughput and latency against the offered rate, with
// the SLO line, the knee and the highest sustainable rate marked. Charts
// take their width from their box, follow it when the window is resized,
// and space their axis labels by the labels' measured width, so that no
// label covers another and no chart covers its neighbour.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("loadlens-data").textContent);
  var pts = data.points, retried = data.retried || [];
  var xs = pts.map(function (p) { return p.rate; });
  var FONT_PX = 12;
  var FONT = FONT_PX + 'px system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif';
  var TICK = 10, GAP = 5; // uPlot's tick length and label gap
  var measureCtx = document.createElement("canvas").getContext("2d");

  // textWidth is the width in CSS pixels of t in the charts' font.
  function textWidth(t) {
    measureCtx.font = FONT;
    return measureCtx.measureText(t).width;
  }

  // rateFmt writes a rate tick: 0, 50/s, 1.2k/s.
  function rateFmt(v) { return v === 0 ? "0" : LL.fmtNumAxis(v) + "/s"; }

  // niceSplits returns ticks at multiples of 1, 2 or 5 × 10^k, the finest
  // whose labels keep at least `gap` pixels between them. pxPerUnit is the
  // scale's pixels per unit of value.
  function niceSplits(min, max, pxPerUnit, fmt, vertical) {
    if (!(max > min) || !(pxPerUnit > 0)) return [min];
    var mant = [1, 2, 5], k = Math.floor(Math.log10((max - min) / 100));
    for (var i = 0; i < 60; i++) {
      var step = mant[i % 3] * Math.pow(10, k + Math.floor(i / 3));
      var ticks = [], first = Math.ceil(min / step - 1e-9);
      for (var j = first; j * step <= max * (1 + 1e-9) && ticks.length < 100; j++) ticks.push(+(j * step).toPrecision(12));
      if (ticks.length >= 100) continue;
      var need = vertical ? FONT_PX + 10 : 16 + ticks.reduce(function (w, v) { return Math.max(w, textWidth(fmt(v))); }, 0);
      if (step * pxPerUnit >= need) return ticks;
    }
    return [min, max];
  }

  // Chart is one panel: a uPlot whose size follows its box.
  function Chart(parent, spec) {
    this.spec = spec;
    this.title = spec.title;
    this.box = LL.el("section", "panel");
    var head = LL.el("div", "panel-head");
    head.appendChild(LL.el("h3", null, spec.title));
    this.box.appendChild(head);
    this.plot = LL.el("div", "plot");
    this.box.appendChild(this.plot);
    parent.appendChild(this.box);
    this.splits = [[], []]; // the ticks last drawn, per axis
    this.marks = [];        // the boxes of the mark labels last drawn, in plot pixels
  }

  // size is the chart's size from its box: as wide, and proportionally tall.
  Chart.prototype.size = function () {
    var w = Math.max(200, Math.floor(this.plot.clientWidth || this.box.clientWidth - 24 || 560));
    return { width: w, height: Math.round(Math.min(340, Math.max(220, w * 0.42))) };
  };

  Chart.prototype.draw = function () {
    var self = this, spec = this.spec, size = this.size();
    // The legend writes each step's figures as the table does (Go's
    // internal/units), so that no figure is rounded twice, two ways.
    var text = function (idx, key) { return idx === null || idx === undefined || !pts[idx] ? "-" : pts[idx].text[key]; };
    var series = [{ label: "offered iterations/s", value: function (u, v, si, idx) { return text(idx, "rate"); } }];
    var cols = [xs];
    spec.series.forEach(function (s) {
      var one = { label: s.label, stroke: s.stroke, width: 2, dash: s.dash,
        points: { show: s.points !== false, size: 7, fill: s.stroke, stroke: s.stroke },
        value: function (u, v, si, idx) { return text(idx, s.text); } };
      // Steps are separate measurements: a line between them would draw a
      // curve nobody measured, so the latency chart shows points only.
      if (s.line === false) one.paths = function () { return null; };
      series.push(one);
      cols.push(s.col);
    });
    var xMax = Math.max.apply(null, xs.concat(retried.map(function (r) { return r.rate; }), [1])) * 1.06;
    var axis = function (i, fmt) {
      return { font: FONT, stroke: "#475569", grid: { stroke: "#eef2f7" }, ticks: { stroke: "#e2e8f0", size: TICK }, gap: GAP,
        splits: function (u, ai, min, max, incr, space) {
          self.splits[i] = niceSplits(min, max, incr > 0 ? space / incr : 0, fmt, i === 1);
          return self.splits[i];
        },
        values: function (u, vals) { return vals.map(fmt); },
        size: i === 1 ? function (u, vals) {
          return Math.ceil(TICK + GAP + 4 + (vals || []).reduce(function (w, v) { return Math.max(w, textWidth(v)); }, 0));
        } : TICK + GAP + FONT_PX + 8 };
    };
    var right = Math.ceil(textWidth(rateFmt(xMax)) / 2) + 8; // room for the last x label
    this.u = new uPlot({
      width: size.width, height: size.height, series: series, padding: [14, right, 0, 0],
      scales: { x: { time: false, range: function () { return [0, xMax]; } },
        y: { range: function (u, min, max) { return [0, Math.max(max || 0, spec.slo || 0) * 1.12 || 1]; } } },
      axes: [axis(0, rateFmt), axis(1, spec.axisFmt)],
      legend: { live: true },
      hooks: { draw: [function (u) { self.decorate(u); }] },
    }, cols, this.plot);
  };

  Chart.prototype.resize = function () {
    var s = this.size();
    if (this.u && (s.width !== this.u.width || s.height !== this.u.height)) this.u.setSize(s);
  };

  // points is how many values the chart holds (for tests).
  Chart.prototype.points = function () {
    var d = this.u.data, n = 0;
    for (var i = 1; i < d.length; i++) d[i].forEach(function (v) { if (v !== null && v !== undefined) n++; });
    return n;
  };

  // decorate draws what uPlot does not: hollow points for steps whose
  // figures the generator disturbed, grey rings for runs not judged, the
  // knee and highest-rate lines and the SLO line, with labels that move
  // aside rather than cover each other.
  Chart.prototype.decorate = function (u) {
    var ctx = u.ctx, dpr = u.bbox.width / (u.over.clientWidth || 1), spec = this.spec, self = this;
    var left = u.bbox.left / dpr, top = u.bbox.top / dpr, w = u.bbox.width / dpr, h = u.bbox.height / dpr;
    this.marks = [];
    ctx.save();
    ctx.scale(dpr, dpr);
    var ring = function (x, y, color, fill) {
      ctx.beginPath(); ctx.arc(left + u.valToPos(x, "x"), top + u.valToPos(y, "y"), 4, 0, 2 * Math.PI);
      ctx.fillStyle = fill; ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = color; ctx.stroke();
    };
    spec.series.forEach(function (s) {
      pts.forEach(function (p, i) { if (!p.trusted && s.col[i] !== null) ring(p.rate, s.col[i], s.stroke, "#fff"); });
      retried.forEach(function (r) { var v = s.pick(r); if (v !== null && v !== undefined) ring(r.rate, v, "#94a3b8", "rgba(255,255,255,0.6)"); });
    });
    ctx.font = FONT;
    var place = function (text, x, y, color, alignRight) {
      var tw = textWidth(text), bx = alignRight ? x - tw : x;
      bx = Math.max(2, Math.min(bx, w - tw - 2));
      var box = { x: bx, y: y, w: tw, h: FONT_PX + 2 };
      for (var n = 0; n < 8 && self.marks.some(function (m) { return overlaps(m, box, 2); }); n++) box.y += FONT_PX + 4;
      self.marks.push({ text: text, x: box.x, y: box.y, w: tw, h: box.h });
      ctx.fillStyle = color; ctx.textBaseline = "top"; ctx.textAlign = "left";
      ctx.fillText(text, left + box.x, top + box.y);
    };
    var lines = [data.knee, data.highest].filter(Boolean).map(function (r) { return u.valToPos(r, "x"); });
    // crosses reports whether a label from a to b would cross another line.
    var crosses = function (x, a, b) { return lines.some(function (l) { return l !== x && l > a - 2 && l < b + 2; }); };
    var vline = function (rate, color, text) {
      if (!rate) return;
      var x = u.valToPos(rate, "x"), tw = textWidth(text);
      ctx.strokeStyle = color; ctx.setLineDash([5, 4]); ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(left + x, top); ctx.lineTo(left + x, top + h); ctx.stroke();
      var rightOK = x + 4 + tw <= w && !crosses(x, x + 4, x + 4 + tw);
      var leftOK = x - 4 - tw >= 0 && !crosses(x, x - 4 - tw, x - 4);
      var toLeft = !rightOK && leftOK;
      place(text, toLeft ? x - 4 : x + 4, 2, color, toLeft);
    };
    vline(data.knee, "#a16207", "knee " + data.knee_text);
    vline(data.highest, "#15803d", "highest sustainable " + data.highest_text);
    if (spec.slo) {
      var y = u.valToPos(spec.slo, "y");
      ctx.strokeStyle = "#dc2626"; ctx.setLineDash([2, 3]); ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(left, top + y); ctx.lineTo(left + w, top + y); ctx.stroke();
      var text = "SLO p95 " + LL.fmtMs(spec.slo), above = y - FONT_PX - 4;
      var box = { x: w - textWidth(text) - 4, y: above, w: textWidth(text), h: FONT_PX + 2 };
      var clash = above < 0 || self.marks.some(function (m) { return overlaps(m, box, 2); });
      place(text, w - 4, clash ? y + 4 : above, "#dc2626", true);
    }
    ctx.restore();
  };

  // overlaps reports whether boxes a and b come within pad pixels.
  function overlaps(a, b, pad) {
    return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
  }

  // labels returns every label the chart drew, in page pixels: the axes'
  // tick labels and the marks' (for tests).
  Chart.prototype.labels = function () {
    var u = this.u, over = u.over.getBoundingClientRect(), out = [];
    this.splits[0].forEach(function (v) {
      var t = rateFmt(v), tw = textWidth(t), cx = over.left + u.valToPos(v, "x");
      out.push({ kind: "x", text: t, left: cx - tw / 2, right: cx + tw / 2, top: over.bottom + TICK + GAP, bottom: over.bottom + TICK + GAP + FONT_PX });
    });
    var fmt = this.spec.axisFmt;
    this.splits[1].forEach(function (v) {
      var t = fmt(v), tw = textWidth(t), cy = over.top + u.valToPos(v, "y"), r = over.left - TICK - GAP;
      out.push({ kind: "y", text: t, left: r - tw, right: r, top: cy - FONT_PX / 2, bottom: cy + FONT_PX / 2 });
    });
    this.marks.forEach(function (m) {
      out.push({ kind: "mark", text: m.text, left: over.left + m.x, right: over.left + m.x + m.w, top: over.top + m.y, bottom: over.top + m.y + m.h });
    });
    return out;
  };

  var specs = [
    { title: "Throughput (" + data.per_second + ") against the offered rate (iterations/s)", fmt: function (v) { return LL.fmtNum(v) + "/s"; }, axisFmt: rateFmt, series: [
      { label: "done " + data.per_second, text: "done", stroke: "#2563eb", col: pts.map(function (p) { return p.done; }), pick: function (r) { return r.done; } },
      { label: "offered " + data.per_second, text: "offered", stroke: "#94a3b8", dash: [4, 4], points: false, col: pts.map(function (p) { return p.offered; }), pick: function () { return null; } },
    ] },
    { title: "Latency against the offered rate (iterations/s)", fmt: LL.fmtMs, axisFmt: LL.fmtMsAxis, slo: data.slo, series: [
      { label: "p95", text: "p95", line: false, stroke: "#ea580c", col: pts.map(function (p) { return p.p95; }), pick: function (r) { return r.p95; } },
      { label: "p99", text: "p99", line: false, stroke: "#dc2626", col: pts.map(function (p) { return p.p99; }), pick: function (r) { return r.p99; } },
    ] },
  ];
  var parent = document.getElementById("panels");
  // Every box is in the grid before any chart is sized: a chart sized while
  // it was alone in the grid would keep the whole row's width.
  var charts = specs.map(function (s) { return new Chart(parent, s); });
  charts.forEach(function (c) { c.draw(); LL.charts.push(c); });
  var resize = function () { charts.forEach(function (c) { c.resize(); }); };
  if (window.ResizeObserver) {
    var ro = new ResizeObserver(resize);
    charts.forEach(function (c) { ro.observe(c.box); });
  }
  window.addEventListener("resize", resize);
  LL.labels = function () { return charts.map(function (c) { return { title: c.title, labels: c.labels() }; }); };
  LL.ready = true;
})();
