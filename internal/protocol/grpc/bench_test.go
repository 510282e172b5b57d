package grpc

import (
	"context"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/protocol/prototest"
)

// BenchmarkUnary is one VU's unary calls against the in-process interop
// server, with a status check, through grpc-go and the lean client: the
// client's cost per call (allocations above all; the server shares the
// CPU, so ns/op is not loadlens's alone).
func BenchmarkUnary(b *testing.B) {
	addr := startInterop(b, nil)
	for _, c := range []struct {
		name string
		lean bool
	}{{"grpc-go", false}, {"lean", true}} {
		b.Run(c.name, func(b *testing.B) { benchUnary(b, addr, c.lean) })
	}
}

func benchUnary(b *testing.B, addr string, lean bool) {
	s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second, MaxMessage: plan.DefaultMaxMessage,
		Checks: []plan.Check{{ID: 0, From: plan.FromStatus, Op: plan.OpIn, Values: []string{"0"}}},
		GRPC:   &plan.GRPC{Target: addr, Method: "grpc.testing.TestService/UnaryCall", Messages: msg(`{"response_size": 10}`)}}
	protos(s.GRPC)
	st, err := Protocol{}.Prepare(&s, env())
	if err != nil {
		b.Fatal(err)
	}
	st.(*step).lean = lean
	sess := st.NewSession()
	defer sess.Close()
	vu := prototest.NewVU()
	b.ReportAllocs()
	for b.Loop() {
		vu.Samples, vu.Facts = vu.Samples[:0], vu.Facts[:0]
		sess.Run(context.Background(), vu, time.Now())
	}
	if vu.Samples[0].Kind != 0 {
		b.Fatalf("kind %v: %s", vu.Samples[0].Kind, vu.Samples[0].Err)
	}
}
