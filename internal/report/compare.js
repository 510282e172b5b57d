// compare.html: the runs' per-second figures overlaid, one chart per
// figure, with each run's compared seconds shaded in its colour. Names
// reach the page as data and enter the DOM with textContent only.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("loadlens-data").textContent);
  var runs = data.runs;
  var colors = ["#2563eb", "#dc2626", "#16a34a", "#ca8a04", "#9333ea", "#0891b2", "#db2777", "#475569"];
  var color = function (i) { return colors[i % colors.length]; };

  document.querySelectorAll("#runs td[data-run] .swatch").forEach(function (s, i) { s.style.background = color(i); });

  // x runs from 0 to the longest run's last second; each run's column is
  // null where it has no second.
  var last = 0;
  runs.forEach(function (r) { if (r.t.length) last = Math.max(last, r.t[r.t.length - 1]); });
  var xs = [];
  for (var s = 0; s <= last; s++) xs.push(s);
  function column(r, pick) {
    var out = new Array(xs.length).fill(null);
    for (var k = 0; k < r.t.length; k++) out[r.t[k]] = pick(r, k);
    return out;
  }

  // shade draws each run's compared seconds as a faint band.
  function shade(u) {
    var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
    runs.forEach(function (r, i) {
      var x0 = u.valToPos(r.first - 0.5, "x", true), x1 = u.valToPos(r.last + 0.5, "x", true);
      ctx.save();
      ctx.fillStyle = color(i);
      ctx.globalAlpha = 0.06;
      ctx.fillRect(x0, top, x1 - x0, h);
      ctx.restore();
    });
  }

  var panels = [
    { title: "Requests per second", fmt: LL.fmtNum, pick: function (r, k) { return r.rq[k]; } },
    { title: "p95 latency", fmt: LL.fmtMs, pick: function (r, k) { return r.p95[k]; } },
    { title: "p99 latency", fmt: LL.fmtMs, pick: function (r, k) { return r.p99[k]; } },
    { title: "p50 latency", fmt: LL.fmtMs, pick: function (r, k) { return r.p50[k]; } },
    { title: "Errors per second", fmt: LL.fmtNum, pick: function (r, k) { return r.er[k]; } },
    { title: "Load (" + data.loadUnit + ")", fmt: LL.fmtNum, pick: function (r, k) { return r.load[k]; } },
  ];
  var parent = document.getElementById("panels"), plots = [];
  panels.forEach(function (p) {
    var box = LL.el("section", "panel");
    var head = LL.el("div", "panel-head");
    head.appendChild(LL.el("h3", null, p.title));
    box.appendChild(head);
    var plot = LL.el("div", "plot");
    box.appendChild(plot);
    parent.appendChild(box);
    var series = [{ label: "second", value: function (u, v) { return v === null ? "-" : LL.fmtElapsed(v); } }];
    var cols = [xs];
    runs.forEach(function (r, i) {
      series.push({ label: r.letter + " " + r.name, stroke: color(i), width: 1.5, spanGaps: false, points: { show: false },
        value: function (u, v) { return v === null || v === undefined ? "-" : p.fmt(v); } });
      cols.push(column(r, p.pick));
    });
    var width = function () { return Math.max(280, plot.clientWidth || box.clientWidth - 24 || 600); };
    var u = new uPlot({
      width: width(), height: 220,
      scales: { x: { time: false }, y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.08 : 1]; } } },
      axes: [
        { stroke: "#475569", grid: { stroke: "#eef2f7" }, values: function (u, vals) { return vals.map(LL.fmtElapsed); } },
        { stroke: "#475569", grid: { stroke: "#eef2f7" }, size: 62, values: function (u, vals) { return vals.map(p.fmt); } },
      ],
      series: series,
      hooks: { drawClear: [shade] },
      cursor: { drag: { x: true, y: false } },
    }, cols, plot);
    plots.push({ u: u, box: box, width: width });
  });
  if (window.ResizeObserver) {
    var ro = new ResizeObserver(function () { plots.forEach(function (p) { p.u.setSize({ width: p.width(), height: 220 }); }); });
    plots.forEach(function (p) { ro.observe(p.box); });
  }
  window.LLcompare = { plots: plots.length, ready: true };
})();
