package har

import (
	"strings"
	"testing"
)

// TestImportHARErrorsSayWhere: a recording that does not decode is
// reported with the line and column, and the entry when the fault is in one.
func TestImportHARErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ name, har, want string }{
		{"wrong type in the first entry", `{"log": {"entries": [{"request": {"method": 5, "url": "http://x/"}}]}}`,
			"not a HAR file: entry 1 (log.entries[0]) at line 1, column 45: request.method is a JSON number, want a string"},
		{"wrong type in the second entry", "{\"log\": {\"entries\": [\n {\"request\": {\"method\": \"GET\"}},\n {\"request\": {\"headers\": {\"a\": 1}}}]}}",
			"not a HAR file: entry 2 (log.entries[1]) at line 3, column 26: request.headers is a JSON object, want a list"},
		{"entries not a list", "{\n \"log\": {\n  \"entries\": \"nope\"\n }\n}", "not a HAR file: line 3, column 19: log.entries is a JSON string, want a list"},
		{"cut short", `{"log": `, "not a HAR file: the JSON ends early, at line 1, column 9"},
		{"syntax", "{\"log\":\n {\"entries\": [}}", "not a HAR file: line 2, column 15: not JSON: invalid character '}' looking for beginning of value"},
		{"empty", "  \n", "not a HAR file (JSON with log.entries): the file is empty"},
	} {
		_, err := Import(strings.NewReader(c.har), "x.har", DefaultOptions())
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
}
