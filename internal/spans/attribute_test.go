package spans

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// span makes a span of the shop from a to b milliseconds after t0.
func span(trace int, sid, parent byte, name string, kind Kind, a, b int) Span {
	return Span{Trace: id(trace), ID: SpanID{sid}, Parent: SpanID{parent}, Service: "shop", Name: name, Kind: kind,
		Start: t0.Add(ms(a)), End: t0.Add(ms(b))}
}

func db(s Span, system, stmt string) Span { s.DBSystem, s.Statement = system, stmt; return s }
func host(s Span, h string) Span          { s.Host = h; return s }

func TestAttribution(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dur   time.Duration
		spans []Span
		want  map[Part]bool // kind, name, time
	}{
		{"sequential calls", ms(110), []Span{
			span(1, 1, 99, "GET /apps/first-page", KindServer, 0, 100),
			db(span(1, 2, 1, "SELECT apps", KindClient, 10, 40), "postgresql", "SELECT *  FROM apps\n WHERE id = $1"),
			db(span(1, 3, 1, "GET", KindClient, 40, 45), "redis", ""),
			host(span(1, 4, 1, "GET", KindClient, 50, 70), "payments.local"),
			span(1, 5, 1, "render", KindOther, 70, 90), // internal: the service's own time
		}, map[Part]bool{
			{Kind: PartDB, Name: "SELECT * FROM apps WHERE id = $1", Span: "SELECT apps", Time: ms(30)}: true,
			{Kind: PartCache, Name: "GET", Span: "GET", Time: ms(5)}:                                    true,
			{Kind: PartHTTP, Name: "payments.local", Span: "GET", Time: ms(20)}:                         true,
			{Kind: PartService, Time: ms(45)}:                                                           true,
			{Kind: PartOutside, Time: ms(10)}:                                                           true,
		}},
		{"overlapping calls share the overlap", ms(100), []Span{
			span(2, 1, 99, "GET /feed", KindServer, 0, 100),
			db(span(2, 2, 1, "q1", KindClient, 0, 60), "mysql", ""),
			db(span(2, 3, 1, "q2", KindClient, 40, 80), "mysql", ""),
		}, map[Part]bool{
			{Kind: PartDB, Name: "q1", Span: "q1", Time: ms(50)}: true, // 40 alone + 20/2
			{Kind: PartDB, Name: "q2", Span: "q2", Time: ms(30)}: true, // 20/2 + 20 alone
			{Kind: PartService, Time: ms(20)}:                    true,
		}},
		{"a driver's rows span under its query's span is the same statement", ms(50), []Span{
			span(4, 1, 99, "GET /apps/first-page", KindServer, 0, 50),
			db(span(4, 2, 1, "SELECT demo_apps", KindClient, 5, 20), "sqlite", "SELECT id FROM demo_apps"),
			db(span(4, 3, 2, "sql.rows", KindClient, 20, 40), "sqlite", ""),
		}, map[Part]bool{
			{Kind: PartDB, Name: "SELECT id FROM demo_apps", Span: "SELECT demo_apps", Time: ms(35)}: true,
			{Kind: PartService, Time: ms(15)}: true,
		}},
		{"a downstream service's spans and calls past the entry span", ms(100), []Span{
			span(3, 1, 99, "GET /feed", KindServer, 0, 100),
			host(span(3, 2, 1, "GET", KindClient, 20, 120), "api.local"), // clipped at the entry span's end
			func() Span {
				s := db(span(3, 3, 2, "SELECT", KindClient, 30, 60), "postgresql", "")
				s.Service = "api"
				return s
			}(),
		}, map[Part]bool{
			{Kind: PartHTTP, Name: "api.local", Span: "GET", Time: ms(80)}: true,
			{Kind: PartService, Time: ms(20)}:                              true,
		}},
		{"an entry span that ends before it starts has no length", ms(14), []Span{
			span(5, 1, 99, "GET /h", KindServer, 5000, 0), // the trial's: service was 5 s of a 14 ms request
		}, map[Part]bool{
			{Kind: PartService}:               true,
			{Kind: PartOutside, Time: ms(14)}: true,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			traces, stmts, unmatched := Join([]Request{{Trace: tc.spans[0].Trace, Duration: tc.dur}, {Trace: id(999)}}, tc.spans)
			if len(traces) != 1 || unmatched != 1 {
				t.Fatalf("%d traces, %d unmatched; want 1 and 1", len(traces), unmatched)
			}
			got := traces[0]
			var sum time.Duration
			for _, p := range got.Parts {
				sum += p.Time
				if !tc.want[p] {
					t.Errorf("unexpected part %+v", p)
				}
			}
			if len(got.Parts) != len(tc.want) {
				t.Errorf("parts %+v, want %v", got.Parts, tc.want)
			}
			if sum != max(tc.dur, got.Server) {
				t.Errorf("parts add up to %v, want %v", sum, max(tc.dur, got.Server))
			}
			for _, s := range stmts {
				if s.Calls != 1 || s.Total <= 0 {
					t.Errorf("statement %+v", s)
				}
			}
		})
	}
}

// TestSummarizeSplitsTailFromMedian: 100 traces of one endpoint, the 6
// slowest (the p95 and above) spending their time in one query; the tail says so, the median
// does not.
func TestSummarizeSplitsTailFromMedian(t *testing.T) {
	var reqs []Request
	var all []Span
	for i := range 100 {
		d := 20 + i%10 // 20–29 ms
		q := 2
		if i >= 94 {
			d, q = 200, 180
		}
		reqs = append(reqs, Request{Trace: id(i), Endpoint: 0, Sec: i / 10, Duration: ms(d)})
		all = append(all, span(i, 1, 99, "GET /x", KindServer, 0, d),
			db(span(i, 2, 1, "SELECT slow", KindClient, 1, 1+q), "postgresql", "SELECT slow"))
	}
	traces, stmts, _ := Join(reqs, all)
	bs := Summarize(traces, stmts)
	if len(bs) != 1 {
		t.Fatalf("%d breakdowns", len(bs))
	}
	b := bs[0]
	if s := b.Seconds[9]; s.Traces != 10 || s.Parts[0].Kind != PartDB || s.Parts[0].Time != (4*ms(2)+6*ms(180))/10 {
		t.Errorf("second 9: %+v, want the DB first at the mean of its 10 traces", s)
	}
	if b.Traces != 100 || b.Tail.Traces != 6 || b.P95 != ms(200) || len(b.Seconds) != 10 {
		t.Fatalf("traces %d, tail %d, p95 %v, seconds %d", b.Traces, b.Tail.Traces, b.P95, len(b.Seconds))
	}
	top := b.Tail.Parts[0]
	if top.Kind != PartDB || top.Name != "SELECT slow" || b.Tail.Share(top) != 0.9 {
		t.Errorf("tail's top part %+v, share %v; want the query at 90 %%", top, b.Tail.Share(top))
	}
	if m := b.Median.Parts[0]; m.Kind != PartService || b.Median.Traces == 0 {
		t.Errorf("median's top part %+v of %d traces, want the service", m, b.Median.Traces)
	}
	if len(b.Statements) != 1 || b.Statements[0].Calls != 100 || b.Statements[0].Max != ms(180) {
		t.Errorf("statements %+v", b.Statements)
	}
}

// TestPartsAddUpExactly: three calls overlapping over 10 ns cannot share
// them equally; the parts still add up to the nanosecond.
func TestPartsAddUpExactly(t *testing.T) {
	root := span(5, 1, 99, "GET /x", KindServer, 0, 1)
	ss := []Span{root}
	for i := range 3 {
		s := db(span(5, byte(2+i), 1, "q", KindClient, 0, 0), "mysql", "")
		s.Name = string(rune('a' + i))
		s.End = s.Start.Add(10)
		ss = append(ss, s)
	}
	traces, _, _ := Join([]Request{{Trace: id(5), Duration: ms(1)}}, ss)
	var sum time.Duration
	for _, p := range traces[0].Parts {
		sum += p.Time
	}
	if sum != ms(1) {
		t.Errorf("parts add up to %v, want 1ms: %+v", sum, traces[0].Parts)
	}
}
