// Findings on the charts: every chart on the run's clock shades the
// seconds of the findings that concern it under its lines, labelled with
// the finding's number as the Findings section lists it.
(function () {
  "use strict";
  var LL = window.LL;

  // findings are the diagnosis's findings ({n, kind, severity, from, to}):
  // the charts on the run's clock shade those that concern them.
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

  // chartKinds names the findings each chart shades, by the chart's key
  // (an observed family's key ends in its chart id): a finding's seconds
  // on a chart that cannot show its cause only hide the lines. A chart
  // not listed shades none.
  var gen = ["generator-bound", "generator-host-busy"];
  var chartKinds = {
    throughput: ["all-failed", "errors-at-load", "check-failed", "saturation", "more-vus-same-tps", "target-held-vus", "late-scale-out"],
    latency: ["saturation", "latency-drift", "bimodal-latency", "trace-db-tail", "backend-not-scaled", "more-vus-same-tps"],
    vus: ["target-held-vus", "more-vus-same-tps", "saturation"].concat(gen),
    lag: gen, cpu: gen, bytes: [],
    pool: ["pool-exhaustion"], "pool-waits": ["pool-exhaustion"], "pool-wait-time": ["pool-exhaustion"], "pg-conn": ["pool-exhaustion"],
    "cpu-share": ["cpu-saturation"], "cpu-cores": ["cpu-saturation"],
    "container-cpu": ["cpu-saturation", "cpu-throttled", "late-scale-out"], "container-cfs": ["cpu-throttled"],
    "gc-time": ["gc-pressure"], "gc-count": ["gc-pressure"],
    "kube-replicas": ["late-scale-out", "backend-not-scaled"], "kube-phases": ["pod-restarts"], "kube-restarts": ["pod-restarts"],
    "gen-cpu": gen, "gen-host": gen, "gen-lag": gen, "gen-stall": gen, "gen-cpu-wait": gen,
  };

  // findingsFor returns the findings a chart of key shades. An observed
  // chart ("obs:GROUP:CHART", GROUP a scrape target) shades a finding
  // that names a target only when it names GROUP: the DB host's full CPU
  // is not the app's.
  LL.findingsFor = function (fs, key) {
    var parts = String(key || "").split(":"), k = parts[parts.length - 1];
    var group = parts.length === 3 ? parts[1] : null, kinds = chartKinds[k] || [];
    return fs.filter(function (f) {
      if (kinds.indexOf(f.kind) < 0) return false;
      var t = String(f.title || "");
      return !group || t.indexOf("target=") < 0 || t.indexOf("target=" + group + ")") >= 0 || t.indexOf("target=" + group + ",") >= 0;
    });
  };

  // labelRow returns the first row, from the top, in which a label from
  // x0 to x1 overlaps no label already placed (rows: [[x0, x1], ...] each).
  LL.labelRow = function (rows, x0, x1) {
    for (var r = 0; ; r++) {
      rows[r] = rows[r] || [];
      if (rows[r].every(function (p) { return x1 <= p[0] || x0 >= p[1]; })) {
        rows[r].push([x0, x1]);
        return r;
      }
    }
  };

  // drawFindings shades the seconds of the findings that concern a chart
  // (key: its key) under its lines, each labelled with its number in a
  // row of its own where it would overlap another; charts call it from
  // their drawClear hook.
  LL.drawFindings = function (u, key) {
    var fs = LL.findingsFor(LL.findings || [], key);
    if (!fs.length) return;
    var ctx = u.ctx, b = u.bbox, px = window.devicePixelRatio || 1, rows = [];
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
      var text = "#" + f.n, lx = Math.max(x0, b.left) + 3 * px, w = ctx.measureText(text).width;
      var ly = b.top + 2 * px + LL.labelRow(rows, lx, lx + w + 4 * px) * 13 * px;
      ctx.fillStyle = c.text;
      ctx.fillText(text, lx, ly);
    });
    ctx.restore();
  };
})();
