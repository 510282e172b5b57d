package grpc

import (
	"context"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/jsonpath"
	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
	"github.com/loadlens/loadlens/internal/tmpl"
)

// TestConstantMessageKept: a request message without a template is decoded
// at the VU's first call and reused; one with a template is rendered at
// every call, so the server sees each call's value.
func TestConstantMessageKept(t *testing.T) {
	addr := startInterop(t, nil)
	sized, err := tmpl.Compile(`{"response_size": {{ n }}}`, &tmpl.Scope{Vars: map[string]int{"n": 0}})
	if err != nil {
		t.Fatal(err)
	}
	// the response payload's body: n zero bytes, in base64
	body := func(b64 string) plan.Check {
		return plan.Check{ID: 0, From: plan.FromJSON, Path: jsonpath.MustParse("$.payload.body"), Op: plan.OpEq, Values: []string{b64}}
	}
	tests := []struct {
		name    string
		message *tmpl.Template
		n       []string // the VU's variable n at each call
		want    string   // every call's payload body
		kept    bool
	}{
		{"constant: decoded once", tmpl.Literal(`{"response_size": 3}`), []string{"", ""}, "AAAA", true},
		{"templated: rendered per call", sized, []string{"3", "3"}, "AAAA", false},
		{"templated: a new value is sent", sized, []string{"6", "6"}, "AAAAAAAA", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: []*tmpl.Template{tt.message}}
			protos(g)
			s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage, GRPC: g,
				Checks: []plan.Check{body(tt.want)}}
			st, err := Protocol{}.Prepare(&s, env())
			if err != nil {
				t.Fatal(err)
			}
			sess := st.NewSession().(*session)
			defer sess.Close()
			vu := prototest.NewVU()
			var first any
			for i, n := range tt.n {
				vu.TC.Vars[0] = n
				sess.Run(context.Background(), vu, time.Now())
				if i == 0 && len(sess.fixed) > 0 {
					first = sess.fixed[0]
				}
			}
			if vu.Checks[0] != [2]int{len(tt.n), 0} {
				t.Errorf("body checks %v passes/fails, want %d passes", vu.Checks[0], len(tt.n))
			}
			kept := len(sess.fixed) > 0 && sess.fixed[0] != nil
			if kept != tt.kept || kept && any(sess.fixed[0]) != first {
				t.Errorf("message kept %v (the first call's: %v), want %v", kept, kept && any(sess.fixed[0]) == first, tt.kept)
			}
		})
	}
}
