//go:build demobackends

package demo

import "testing"

// TestBackendsBuilt: with -tags demobackends, --postgres and --redis pass
// the options' checks (TestRealServers then runs them on real servers).
func TestBackendsBuilt(t *testing.T) {
	for _, o := range []Options{{Postgres: "postgres://127.0.0.1:1/shop"}, {Redis: "127.0.0.1:1"}} {
		if _, err := o.withDefaults(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
