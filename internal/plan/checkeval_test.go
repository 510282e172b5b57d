package plan

import (
	"encoding/json"
	"errors"
	"regexp"
	"testing"

	"github.com/loadlens/loadlens/internal/jsonpath"
)

func TestCheckMatchBodyAndJSON(t *testing.T) {
	path := func(s string) jsonpath.Path {
		p, err := jsonpath.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var doc any
	if err := json.Unmarshal([]byte(`{"id":7,"name":"cart"}`), &doc); err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"id":7,"name":"cart"}`)
	cases := []struct {
		name string
		c    Check
		json bool
		err  error
		want bool
	}{
		{"contains", Check{From: FromBody, Op: OpContains, Values: []string{`"cart"`}}, false, nil, true},
		{"contains absent", Check{From: FromBody, Op: OpContains, Values: []string{"basket"}}, false, nil, false},
		{"matches", Check{From: FromBody, Op: OpMatches, Regex: regexp.MustCompile(`"id":\d+`)}, false, nil, true},
		{"eq whole body", Check{From: FromBody, Op: OpEq, Values: []string{"x"}}, false, nil, false},
		{"json eq number", Check{From: FromJSON, Path: path("$.id"), Op: OpEq, Values: []string{"7.0"}}, true, nil, true},
		{"json gt", Check{From: FromJSON, Path: path("$.id"), Op: OpGt, Values: []string{"7"}}, true, nil, false},
		{"json exists", Check{From: FromJSON, Path: path("$.name"), Op: OpExists}, true, nil, true},
		{"json exists false on absent", Check{From: FromJSON, Path: path("$.missing"), Op: OpExists, Values: []string{"false"}}, true, nil, true},
		{"json on unparsed body fails even exists false", Check{From: FromJSON, Path: path("$.missing"), Op: OpExists, Values: []string{"false"}}, true, errors.New("not json"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got bool
			if tc.json {
				got = tc.c.MatchJSON(doc, tc.err)
			} else {
				got = tc.c.MatchBody(body)
			}
			if got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
