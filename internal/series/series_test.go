package series

import "testing"

func TestFindAndKey(t *testing.T) {
	a := &Series{Name: "hikaricp_connections_pending", Labels: []Label{{"pool", "main"}, {"role", "app"}}}
	b := &Series{Name: "hikaricp_connections_pending", Labels: []Label{{"pool", "other"}, {"role", "app"}}}
	c := &Series{Name: "up"}
	set := Set{a, b, c}
	cases := []struct {
		name   string
		metric string
		labels []string
		want   int
	}{
		{"by name", "hikaricp_connections_pending", nil, 2},
		{"by name and label", "hikaricp_connections_pending", []string{"pool", "main"}, 1},
		{"no match", "hikaricp_connections_pending", []string{"role", "db"}, 0},
		{"unlabelled", "up", nil, 1},
	}
	for _, tc := range cases {
		if got := len(set.Find(tc.metric, tc.labels...)); got != tc.want {
			t.Errorf("%s: found %d, want %d", tc.name, got, tc.want)
		}
	}
	if k := a.Key(); k != `hikaricp_connections_pending{pool="main",role="app"}` {
		t.Errorf("Key = %s", k)
	}
	ls := []Label{{"z", "1"}, {"a", "2"}}
	SortLabels(ls)
	if ls[0].Name != "a" {
		t.Errorf("SortLabels: %v", ls)
	}
}
