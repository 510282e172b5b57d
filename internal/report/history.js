// history.html: per series and endpoint, latency (p50; p95 and p99) and
// throughput over the runs, one point per run; a dashed line marks each
// change point (red worse, green better); hovering a point shows its run
// and labels, clicking it opens the run's report. Names and labels reach
// the page as data and enter the DOM with textContent only.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("loadlens-data").textContent);
  var tip = document.getElementById("tip");
  var drawn = 0, marks = 0, rings = 0;
  var markedAt = []; // the run each dashed line was drawn on, for the page's own check
  var ticks = new Map(); // each chart's labelled x ticks, for the page's own check that labels keep apart
  var labels = new Map(); // and their texts, for its check that no two read the same
  var charts = [
    // the median on its own axis: beside a p99 of 600 ms, a step from 21 to 31 ms was a flat line
    { title: "latency · median", fmt: LL.fmtMs, figs: [["p(50)", "#64748b"]] },
    { title: "latency · tail", fmt: LL.fmtMs, figs: [["p(95)", "#2563eb"], ["p(99)", "#9333ea"]] },
    { title: "requests per second", fmt: LL.fmtNum, figs: [["rps", "#16a34a"]] },
    { title: "errors", fmt: LL.fmtPct, figs: [["errors", "#dc2626"]], empty: 0.01 },
  ];

  function markChanges(ep, figs) {
    return function (u) {
      var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
      ep.changes.forEach(function (c) {
        if (figs.indexOf(c.figure) < 0) return;
        // on the first run of the new level, the run the change point's text names
        var at = c.at, x = u.valToPos(at, "x", true);
        ctx.save();
        ctx.strokeStyle = c.worse ? "#dc2626" : "#16a34a";
        ctx.lineWidth = 2;
        ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, top + h); ctx.stroke();
        ctx.restore();
        marks++;
        markedAt.push(at);
      });
    };
  }

  // rings each run left out of the change-point analysis (not completed,
  // or its generator disturbed), so a level it seems to start is read as such
  function markLeftOut(s, ep, figs) {
    return function (u) {
      var ctx = u.ctx;
      s.runs.forEach(function (r, i) {
        if (!r.leftOut) return;
        figs.forEach(function (f) {
          var v = ep.figures[f] && ep.figures[f][i];
          if (v === null || v === undefined) return;
          ctx.save();
          ctx.strokeStyle = "#94a3b8";
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.arc(u.valToPos(i, "x", true), u.valToPos(v, "y", true), 7, 0, 2 * Math.PI);
          ctx.stroke();
          ctx.restore();
          rings++;
        });
      });
    };
  }

  function showTip(s, u) {
    var i = u.cursor.idx;
    if (i === null || i === undefined || u.cursor.left < 0) { tip.style.display = "none"; return; }
    var r = s.runs[i], rect = u.over.getBoundingClientRect();
    tip.textContent = r.id + " · " + r.started + " · " + r.result + (r.tags ? " · " + r.tags : "") +
      (r.leftOut ? " · left out of the change points" : "") + (r.link ? " (click: report)" : "");
    tip.style.left = (rect.left + u.cursor.left + 12) + "px";
    tip.style.top = (rect.top + u.cursor.top + 12) + "px";
    tip.style.display = "block";
  }

  // tickLabels names the labelled runs by their start to the minute, to the
  // second when two share a minute, by their number when two share a second:
  // six runs in two minutes read "11-30 20:44" on three ticks
  function tickLabels(s, runs) {
    var oneDay = new Set(runs.map(function (i) { return s.runs[i].stamp.slice(0, 5); })).size === 1;
    var ways = [function (i) { return s.runs[i].started.slice(5); },
      function (i) { return oneDay ? s.runs[i].stamp.slice(6) : s.runs[i].stamp; }, // "20:44:07": the day would widen it past a tick's space
      function (i) { return "run " + (i + 1); }];
    for (var w = 0; w < ways.length; w++) {
      var texts = runs.map(ways[w]);
      if (new Set(texts).size === texts.length || w === ways.length - 1) {
        var m = new Map();
        runs.forEach(function (v, k) { m.set(v, texts[k]); });
        return m;
      }
    }
  }

  function chart(parent, s, ep, c) {
    var box = LL.el("section", "panel");
    var head = LL.el("div", "panel-head");
    head.appendChild(LL.el("h3", null, ep.name + " · " + c.title));
    box.appendChild(head);
    var plot = LL.el("div", "plot");
    box.appendChild(plot);
    parent.appendChild(box);
    var xs = s.runs.map(function (r, i) { return i; });
    var series = [{ label: "run", value: function (u, v) { return v === null ? "-" : s.runs[v].started; } }];
    var cols = [xs];
    var figs = c.figs.map(function (f) { return f[0]; });
    c.figs.forEach(function (f) {
      series.push({ label: f[0], stroke: f[1], width: 1.5, spanGaps: true, points: { show: true, size: 6 },
        value: function (u, v) { return v === null || v === undefined ? "-" : c.fmt(v); } });
      cols.push(ep.figures[f[0]]);
    });
    var width = function () { return Math.max(280, plot.clientWidth || box.clientWidth - 24 || 600); };
    var u = new uPlot({
      width: width(), height: 220,
      scales: { x: { time: false, range: function () { return [-0.5, xs.length - 0.5]; } },
        y: { range: function (u, min, max) { return [0, max > 0 ? max * 1.08 : c.empty || 1]; } } },
      axes: [
        // whole runs only, ticks at least a label's width apart ("11-30 00:51")
        { stroke: "#475569", grid: { stroke: "#eef2f7" }, space: 96, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
          values: function (u, vals) {
          var runs = vals.filter(function (v) { return Number.isInteger(v) && s.runs[v]; });
          var label = tickLabels(s, runs);
          ticks.set(u, runs);
          labels.set(u, runs.map(function (v) { return label.get(v); }));
          return vals.map(function (v) { return label.has(v) ? label.get(v) : ""; }); } },
        { stroke: "#475569", grid: { stroke: "#eef2f7" }, size: 72, values: function (u, vals) { return vals.map(c.fmt); } },
      ],
      series: series,
      hooks: { draw: [markChanges(ep, figs), markLeftOut(s, ep, figs)], setCursor: [function (u) { showTip(s, u); }] },
    }, cols, plot);
    u.over.addEventListener("mouseleave", function () { tip.style.display = "none"; });
    u.over.addEventListener("click", function (e) {
      // the run nearest the click, whether or not the cursor has caught up with the pointer
      var i = Math.round(u.posToVal(e.clientX - u.over.getBoundingClientRect().left, "x"));
      if (i >= 0 && i < s.runs.length && s.runs[i].link) window.location.href = s.runs[i].link;
    });
    drawn++;
    return { u: u, box: box, width: width };
  }

  var plots = [];
  document.querySelectorAll("section.series").forEach(function (sec) {
    var s = data.series[Number(sec.getAttribute("data-series"))];
    var parent = sec.querySelector(".panels");
    s.endpoints.forEach(function (ep) {
      charts.forEach(function (c) { plots.push(chart(parent, s, ep, c)); });
    });
  });
  if (window.ResizeObserver) {
    var ro = new ResizeObserver(function () { plots.forEach(function (p) { p.u.setSize({ width: p.width(), height: 220 }); }); });
    plots.forEach(function (p) { ro.observe(p.box); });
  }
  // the least distance in pixels between two labelled runs on any chart's x axis
  function labelGap() {
    var gap = Infinity;
    ticks.forEach(function (vs, u) {
      for (var i = 1; i < vs.length; i++) gap = Math.min(gap, u.valToPos(vs[i], "x") - u.valToPos(vs[i - 1], "x"));
    });
    return gap === Infinity ? -1 : gap;
  }
  // the most labelled ticks of one chart that read the same
  function sameLabels() {
    var most = 0;
    labels.forEach(function (ts) { most = Math.max(most, ts.length - new Set(ts).size); });
    return most;
  }
  window.LLhistory = { charts: drawn, marks: function () { return marks; }, rings: function () { return rings; }, labelGap: labelGap,
    markedAt: function () { return markedAt.slice(); }, sameLabels: sameLabels, ready: true };
})();
