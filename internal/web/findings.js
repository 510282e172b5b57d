// Findings on the charts: every chart on the run's clock shades the
// seconds of each finding of the diagnosis under its lines, labelled with
// the finding's number as the Findings section lists it.
(function () {
  "use strict";
  var LL = window.LL;

  // findings are the diagnosis's findings ({n, severity, from, to}): every
  // chart on the run's clock shades their seconds, labelled with their number.
  LL.findings = [];

  // setFindings replaces the findings and redraws the charts that mark them.
  LL.setFindings = function (fs) {
    LL.findings = fs || [];
    LL.charts.forEach(function (c) { if (c.u && c.timeAxis) c.u.redraw(false, false); });
  };

  var bandColors = {
    critical: { fill: "rgba(220,38,38,0.10)", text: "#b91c1c" },
    warning: { fill: "rgba(217,119,6,0.13)", text: "#92400e" },
    info: { fill: "rgba(37,99,235,0.08)", text: "#1e40af" },
  };

  // drawFindings shades the seconds of each finding under a chart's lines;
  // charts call it from their drawClear hook.
  LL.drawFindings = function (u) {
    var fs = LL.findings;
    if (!fs || !fs.length) return;
    var ctx = u.ctx, b = u.bbox, px = window.devicePixelRatio || 1, labels = [];
    ctx.save();
    ctx.beginPath();
    ctx.rect(b.left, b.top, b.width, b.height);
    ctx.clip();
    ctx.font = "600 " + Math.round(11 * px) + "px system-ui, sans-serif";
    ctx.textBaseline = "top";
    fs.forEach(function (f) {
      var c = bandColors[f.severity] || bandColors.info;
      var x0 = u.valToPos(f.from - 0.5, "x", true), x1 = u.valToPos(f.to + 0.5, "x", true);
      if (x1 < b.left || x0 > b.left + b.width) return;
      ctx.fillStyle = c.fill;
      ctx.fillRect(x0, b.top, x1 - x0, b.height);
      var lx = Math.max(x0, b.left) + 3 * px, ly = b.top + 2 * px;
      labels.forEach(function (l) { if (Math.abs(l - lx) < 14 * px) ly += 13 * px; });
      labels.push(lx);
      ctx.fillStyle = c.text;
      ctx.fillText("#" + f.n, lx, ly);
    });
    ctx.restore();
  };
})();
