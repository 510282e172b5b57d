// capacity.html: throughput and latency against the offered rate, with
// the SLO line, the knee and the highest sustainable rate marked.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("loadlens-data").textContent);
  var pts = data.points;
  var xs = pts.map(function (p) { return p.rate; });

  // vline marks a rate with a dashed line and a label.
  function vline(u, rate, color, text) {
    if (!rate) return;
    var ctx = u.ctx, x = u.valToPos(rate, "x", true);
    ctx.save();
    ctx.strokeStyle = color; ctx.setLineDash([5, 4]); ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); ctx.stroke();
    ctx.fillStyle = color; ctx.font = "12px sans-serif"; ctx.fillText(text, x + 4, u.bbox.top + 14);
    ctx.restore();
  }
  // hline marks a value (the SLO) across the plot.
  function hline(u, val, color, text) {
    if (!val) return;
    var ctx = u.ctx, y = u.valToPos(val, "y", true);
    ctx.save();
    ctx.strokeStyle = color; ctx.setLineDash([2, 3]); ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
    ctx.fillStyle = color; ctx.font = "12px sans-serif"; ctx.fillText(text, u.bbox.left + 4, y - 4);
    ctx.restore();
  }
  function marks(u) {
    vline(u, data.knee, "#ca8a04", "knee");
    vline(u, data.highest, "#16a34a", "highest sustainable");
  }

  var panels = [
    { title: "Throughput", fmt: LL.fmtNum, series: [
      { label: "done/s", stroke: "#2563eb", col: pts.map(function (p) { return p.done; }) },
      { label: "offered/s", stroke: "#94a3b8", dash: [4, 4], col: xs.slice() },
    ] },
    { title: "Latency", fmt: LL.fmtMs, slo: data.slo, series: [
      { label: "p95", stroke: "#ea580c", col: pts.map(function (p) { return p.p95; }) },
      { label: "p99", stroke: "#dc2626", col: pts.map(function (p) { return p.p99; }) },
    ] },
  ];
  var parent = document.getElementById("panels");
  panels.forEach(function (p) {
    var box = LL.el("section", "panel");
    var head = LL.el("div", "panel-head");
    head.appendChild(LL.el("h3", null, p.title + " against the offered rate"));
    box.appendChild(head);
    var plot = LL.el("div", "plot");
    box.appendChild(plot);
    parent.appendChild(box);
    var series = [{ label: "offered", value: function (u, v) { return v === null ? "-" : LL.fmtNum(v) + "/s"; } }];
    var cols = [xs];
    p.series.forEach(function (s) {
      series.push({ label: s.label, stroke: s.stroke, width: 2, dash: s.dash, points: { show: true, size: 6 },
        value: function (u, v) { return v === null || v === undefined ? "-" : p.fmt(v); } });
      cols.push(s.col);
    });
    new uPlot({
      width: Math.max(320, plot.clientWidth || 560), height: 260, series: series,
      scales: { x: { time: false }, y: { range: function (u, min, max) { return [0, Math.max(max, p.slo || 0) * 1.1 || 1]; } } },
      axes: [{ values: function (u, vals) { return vals.map(function (v) { return LL.fmtNum(v) + "/s"; }); } },
        { values: function (u, vals) { return vals.map(p.fmt === LL.fmtMs ? LL.fmtMsAxis : LL.fmtNum); }, size: 60 }],
      hooks: { draw: [function (u) { marks(u); if (p.slo) hline(u, p.slo, "#dc2626", "SLO p95 " + LL.fmtMs(p.slo)); }] },
    }, cols, plot);
  });
})();
