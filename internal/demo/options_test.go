package demo

import (
	"strings"
	"testing"
	"time"
)

func TestOptionsDefaults(t *testing.T) {
	o, err := Options{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		got, want any
	}{
		{"address", o.Addr, "127.0.0.1:0"},
		{"variant", o.DefaultVariant, Naive},
		{"pool", o.PoolSize, 10},
		{"pool timeout", o.PoolTimeout, 2 * time.Second},
		{"coupons", o.Coupons, int64(10000)},
		{"cache delay", o.CacheDelay, 10 * time.Millisecond},
		{"refresh", o.RefreshEvery, 30 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Fatalf("%v; want %v", c.got, c.want)
			}
		})
	}
}

func TestOptionsErrors(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"negative pool", Options{PoolSize: -1}, "pool size is -1"},
		{"negative rows", Options{Rows: -5}, "rows is -5"},
		{"unknown variant", Options{DefaultVariant: 42}, "unknown default variant 42"},
		{"two databases", Options{Postgres: "postgres://x", SQLitePath: "a.db"}, "not both"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.o.withDefaults()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want one containing %q", err, c.want)
			}
		})
	}
}

func TestParseVariant(t *testing.T) {
	cases := []struct {
		in      string
		want    Variant
		wantErr bool
	}{
		{"naive", Naive, false},
		{"Improved", Improved, false},
		{"naive-tx", NaiveTx, false},
		{"naive-lock", NaiveLock, false},
		{"naive-race", NaiveRace, false},
		{"", 0, true},
		{"fast", 0, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			v, err := ParseVariant(c.in)
			if v != c.want || (err != nil) != c.wantErr {
				t.Fatalf("ParseVariant(%q) = %v, %v; want %v, error %v", c.in, v, err, c.want, c.wantErr)
			}
			if err == nil && !strings.EqualFold(v.String(), c.in) {
				t.Fatalf("%v.String() = %q; want %q", v, v.String(), c.in)
			}
		})
	}
}
