package main

import (
	"testing"
	"time"
)

func TestModuleOf(t *testing.T) {
	mods := []string{"github.com/loadlens/loadlens", "k8s.io/api", "k8s.io/apimachinery", "github.com/redis/go-redis/v9"}
	tests := []struct{ sym, want string }{
		{"github.com/loadlens/loadlens/internal/app.run", "github.com/loadlens/loadlens"},
		{"k8s.io/api/core/v1.(*Pod).Marshal", "k8s.io/api"},
		{"k8s.io/apimachinery/pkg/runtime.Decode", "k8s.io/apimachinery"}, // not k8s.io/api, a prefix of its path
		{"type:*github.com/redis/go-redis/v9.Client", "github.com/redis/go-redis/v9"},
		{"go:itab.*github.com/redis/go-redis/v9.Client,io.Closer", "github.com/redis/go-redis/v9"},
		{"net/http.(*Server).Serve", "std"},
		{"vendor/golang.org/x/net/http2/hpack.init", "std"},
		{"go:func.*", "runtime tables"},
		{"runtime.text", "std"},
		{"runtime.pclntab", "std"},
		{"_rt0_amd64", "runtime tables"},
	}
	for _, tt := range tests {
		if got := moduleOf(tt.sym, mods); got != tt.want {
			t.Errorf("moduleOf(%q) = %q, want %q", tt.sym, got, tt.want)
		}
	}
}

func TestParseInitTrace(t *testing.T) {
	trace := "init runtime @0.039 ms, 0.27 ms clock, 0 bytes, 0 allocs\n" +
		"loadlens 0.1.0\n" +
		"init github.com/santhosh-tekuri/jsonschema/v6 @9.1 ms, 6.8 ms clock, 1700792 bytes, 21280 allocs\n" +
		"init os @1.2 ms, 0.016 ms clock, 432 bytes, 9 allocs\n"
	c := parseInitTrace(trace)
	if want := 7086 * time.Microsecond; c.Clock != want {
		t.Errorf("clock %v, want %v", c.Clock, want)
	}
	if c.Bytes != 1700792+432 {
		t.Errorf("bytes %d, want %d", c.Bytes, 1700792+432)
	}
	if len(c.Top) != 3 || c.Top[0].Pkg != "github.com/santhosh-tekuri/jsonschema/v6" {
		t.Errorf("top %+v, want jsonschema first of 3", c.Top)
	}
}

func TestPairedRatio(t *testing.T) {
	ms := func(v ...int) timing {
		var t timing
		for _, x := range v {
			t.walls = append(t.walls, time.Duration(x)*time.Millisecond)
		}
		return t
	}
	// A disturbed round (the third) slows both alike: paired, it does not move the ratio.
	a, b := ms(10, 11, 500, 10, 12), ms(20, 22, 1000, 20, 24)
	if got := pairedRatio(a, b); got != 0.5 {
		t.Errorf("pairedRatio = %v, want 0.5", got)
	}
}
