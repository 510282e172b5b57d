package k6

import (
	"strings"
	"testing"
)

// TestParseErrorShowsNoLine: a file that is no script (a link to a shadow
// file) fails with the parser's position, not the line it stopped on.
func TestParseErrorShowsNoLine(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a shadow file", "root:$6$abcdefghSALT$HASHHASHHASHHASHHASH:20228:0:99999:7:::\n",
			"cannot parse the script as JavaScript: unexpected : in expression on line 1, column 48"},
		{"a script with a typo", "import http from \"k6/http\";\nexport default function() { http.get(`${foo(}`); }\n",
			"cannot parse the script as JavaScript: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import([]byte(tc.src), "s.js")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want one starting %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "HASH") || strings.Contains(err.Error(), "http.get") || len(err.Error()) > 160 {
				t.Errorf("the error quotes the file: %q", err)
			}
		})
	}
}
