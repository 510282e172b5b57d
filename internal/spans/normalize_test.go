package spans

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT *  FROM apps\n WHERE id = $1", "SELECT * FROM apps WHERE id = $1"},
		{"select a.id, a.name from author a where a.id = 17", "select a.id, a.name from author a where a.id = ?"},
		{"select * from t where name = 'O''Brien' and x > 1.5e3", "select * from t where name = ? and x > ?"},
		{"select * from t where s = E'a\\'b' and n = N'x' and h = 0xFF", "select * from t where s = ? and n = ? and h = ?"},
		{"select * from t1 where c2 = :p1 and c3 = ?1 and \"Col 9\" = 9", "select * from t1 where c2 = :p1 and c3 = ?1 and \"Col 9\" = ?"},
		{"select * from t where id in (1, 2, 3)", "select * from t where id in (?, …)"},
		{"select * from t where id in (?,?,?,?) and k in (?)", "select * from t where id in (?, …) and k in (?)"},
		{"select 1 /* traceparent='00-abc-01' */ -- a comment 42\nfrom dual", "select ? from dual"},
		{"select $tag$it's 5$tag$, $$x$$ from t", "select ?, ? from t"},
		{"select price_2023 from t limit 20", "select price_2023 from t limit ?"},
		{"select 'unterminated", "select ?"},
	} {
		if got := normalize(tc.in); got != tc.want {
			t.Errorf("normalize(%q)\n  = %q\nwant %q", tc.in, got, tc.want)
		}
	}
	long := "select " + strings.Repeat("col, ", 100) + "x from t"
	if got := normalize(long); len(got) > maxName+len("…") || !strings.HasSuffix(got, "…") {
		t.Errorf("a long statement is not bounded: %d bytes", len(got))
	}
}

func TestBrief(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"select count(*) from owners o where o.last_name like ?", "select count(*) from owners o where o.last_name like ?"},
		{"select o1_0.id,o1_0.address,o1_0.city,o1_0.first_name from owners o1_0 where o1_0.last_name like ? offset ? rows fetch first ? rows only",
			"select … from owners o1_0 where o1_0.last_name like ? offset ? rows fetch first ? rows only"},
		{"select (select max(x) from y) as m, a.b, a.c, a.d, a.e, a.f from a", "select … from a"},
		{"update t set a = ? where id = ?", "update t set a = ? where id = ?"},
	} {
		if got := Brief(tc.in); got != tc.want {
			t.Errorf("Brief(%q)\n  = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestStatementsOfOneSpanName: the Java agent names both a count(*) and a
// page query on one table "SELECT postgres.owners" (issue 20: they read as
// one). They stay two statements and, in the breakdown, each is labelled
// by its text in brief, in the statements and in the groups' parts; the
// joined traces keep the spans' own names (run.db stores those).
func TestStatementsOfOneSpanName(t *testing.T) {
	var reqs []Request
	var all []Span
	for i := range 4 {
		reqs = append(reqs, Request{Trace: id(i), Duration: ms(100)})
		all = append(all, span(i, 1, 99, "GET /owners", KindServer, 0, 100),
			db(span(i, 2, 1, "SELECT postgres.owners", KindClient, 0, 70), "postgresql", "select count(*) from owners o where o.last_name like ?"),
			db(span(i, 3, 1, "SELECT postgres.owners", KindClient, 70, 90), "postgresql",
				"select o.id, o.first_name, o.last_name, o.address, o.city from owners o where o.last_name like 'n1%' offset 0 rows fetch first 10 rows only"),
			db(span(i, 4, 1, "SELECT postgres.pets", KindClient, 90, 95), "postgresql", "select p.id from pets p where p.owner_id = ?"))
	}
	traces, stmts, _ := Join(reqs, all)
	want := map[string]string{
		"select count(*) from owners o where o.last_name like ?":                                                                                 "select count(*) from owners o where o.last_name like ?",
		"select o.id, o.first_name, o.last_name, o.address, o.city from owners o where o.last_name like ? offset ? rows fetch first ? rows only": "select … from owners o where o.last_name like ? offset ? rows fetch first ? rows only",
		"select p.id from pets p where p.owner_id = ?":                                                                                           "SELECT postgres.pets", // alone under its span name: named by it
	}
	if len(stmts) != 3 {
		t.Fatalf("%d statements, want 3: %+v", len(stmts), stmts)
	}
	for _, p := range traces[0].Parts {
		if p.Kind == PartDB && p.Span != "SELECT postgres.owners" && p.Span != "SELECT postgres.pets" {
			t.Errorf("the joined trace's part %q has span %q, not the span's name", p.Name, p.Span)
		}
	}
	b := Summarize(traces, stmts)[0]
	labels := map[string]bool{}
	for _, s := range b.Statements {
		if want[s.Name] != s.Span || s.Calls != 4 {
			t.Errorf("statement %q labelled %q with %d calls; want %q and 4", s.Name, s.Span, s.Calls, want[s.Name])
		}
		labels[s.Span] = true
	}
	if len(labels) != 3 {
		t.Errorf("labels %v: two statements read as one", labels)
	}
	for _, g := range []Group{b.All, b.Median, b.Tail} {
		for _, p := range g.Parts {
			if p.Kind == PartDB && want[p.Name] != p.Span {
				t.Errorf("part %q labelled %q, want %q", p.Name, p.Span, want[p.Name])
			}
		}
	}
}

// TestStatementsPerEndpointAreBounded: a service that sends every
// statement with a value no normalization can fold (here a table per
// call) makes at most MaxStatements statements per endpoint; the rest
// count as OtherStatements, their time kept.
func TestStatementsPerEndpointAreBounded(t *testing.T) {
	n := MaxStatements + 25
	ss := []Span{span(1, 1, 99, "GET /x", KindServer, 0, 2*n)}
	for i := range n {
		ss = append(ss, db(span(1, byte(2+i), 1, "SELECT", KindClient, 2*i, 2*i+1), "postgresql", fmt.Sprintf("select * from t%d", i)))
	}
	traces, stmts, _ := Join([]Request{{Trace: id(1), Duration: ms(2 * n)}}, ss)
	if len(stmts) != MaxStatements+1 {
		t.Fatalf("%d statements, want %d", len(stmts), MaxStatements+1)
	}
	var other *Statement
	for i := range stmts {
		if stmts[i].Name == OtherStatements {
			other = &stmts[i]
		}
	}
	if other == nil || other.Calls != n-MaxStatements || other.Total != time.Duration(n-MaxStatements)*ms(1) {
		t.Errorf("other statements: %+v, want %d calls of 1ms", other, n-MaxStatements)
	}
	var sum time.Duration
	for _, p := range traces[0].Parts {
		sum += p.Time
	}
	if sum != ms(2*n) {
		t.Errorf("parts add up to %v, want %v", sum, ms(2*n))
	}
}
