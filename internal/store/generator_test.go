package store

import (
	"database/sql"
	"net/url"
	"reflect"
	"testing"
)

func TestGeneratorSeconds(t *testing.T) {
	cases := []struct {
		name      string
		write     []GeneratorSecond
		dropTable bool // a run.db written before the table existed
		want      []GeneratorSecond
	}{
		{"none written", nil, false, nil},
		{"in order", []GeneratorSecond{{0, 0.25}, {1, 1.5}, {2, 0}}, false, []GeneratorSecond{{0, 0.25}, {1, 1.5}, {2, 0}}},
		{"written out of order", []GeneratorSecond{{1, 2}, {0, 1}}, false, []GeneratorSecond{{0, 1}, {1, 2}}},
		{"older run.db without the table", nil, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, path := create(t, 3)
			for _, g := range c.write {
				if err := w.WriteGenerator(g); err != nil {
					t.Fatal(err)
				}
			}
			if c.dropTable {
				if _, err := w.db.Exec(`DROP TABLE generator_seconds`); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := open(t, path).Generator()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Generator() = %v, want %v", got, c.want)
			}
		})
	}
}

func TestGeneratorSecondTwiceIsAnError(t *testing.T) {
	w, path := create(t, 1)
	defer w.Close()
	if err := w.WriteGenerator(GeneratorSecond{0, 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteGenerator(GeneratorSecond{0, 2}); err == nil {
		t.Fatalf("writing second 0 twice into %s: no error", path)
	}
	db, err := sql.Open("sqlite", fileDSN(path, url.Values{"mode": {"ro"}}))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var cpu float64
	if err := db.QueryRow(`SELECT cpu_cores FROM generator_seconds WHERE sec = 0`).Scan(&cpu); err != nil || cpu != 1 {
		t.Fatalf("second 0 holds %v (%v), want the first write, 1", cpu, err)
	}
}
