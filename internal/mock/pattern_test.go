package mock

import (
	"slices"
	"testing"
)

func TestPatternMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		ok            bool
		params        []string
	}{
		{"/", "/", true, nil},
		{"/", "/x", false, nil},
		{"/users/{id}", "/users/7", true, []string{"7"}},
		{"/users/{id}", "/users/", false, nil},
		{"/users/{id}", "/users/7/repos", false, nil},
		{"/users/{id}/repos", "/users/7/repos", true, []string{"7"}},
		{"/a/", "/a/", true, nil},
		{"/a/", "/a", false, nil},
		{"/a", "/a/", false, nil},
		{"/{bucket}/{key...}", "/b/k/x/y.txt", true, []string{"b", "k/x/y.txt"}},
		{"/{bucket}/{key...}", "/b/", true, []string{"b", ""}},
		{"/{bucket}/{key...}", "/b", false, nil},
		{"/x/{a}/{b}", "/x/1/2", true, []string{"1", "2"}},
		{"/x", "x", false, nil},
	} {
		p, _, err := parsePattern(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		params := make([]string, len(p.params))
		ok := p.match(c.path, params)
		if ok != c.ok || (ok && !slices.Equal(params, c.params) && len(c.params) > 0) {
			t.Errorf("%s on %s: got %v %q, want %v %q", c.pattern, c.path, ok, params, c.ok, c.params)
		}
	}
}

func TestPatternMatchDoesNotAllocate(t *testing.T) {
	p, _, _ := parsePattern("/{bucket}/{key...}")
	params := make([]string, 2)
	if n := testing.AllocsPerRun(100, func() { p.match("/b/k/x", params) }); n != 0 {
		t.Errorf("match allocates %v times", n)
	}
}
