package history

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Tag bounds: a label is for people reading a chart, not a document.
const (
	maxTagKey   = 64
	maxTagValue = 200
	maxTags     = 32
)

// ParseTags reads `--tag k=v` values into labels. A key is letters,
// digits, '_', '-' or '.'; a key given twice is an error, as one of the
// two would be lost silently.
func ParseTags(args []string) (map[string]string, error) {
	if len(args) > maxTags {
		return nil, fmt.Errorf("--tag: at most %d labels per run, got %d", maxTags, len(args))
	}
	out := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--tag %q: want key=value, e.g. commit=a1b2c3", a)
		}
		if err := checkTagKey(k); err != nil {
			return nil, fmt.Errorf("--tag %q: %w", a, err)
		}
		if !utf8.ValidString(v) || utf8.RuneCountInString(v) > maxTagValue {
			return nil, fmt.Errorf("--tag %q: the value must be UTF-8 text of at most %d characters", a, maxTagValue)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("--tag %s given twice", k)
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func checkTagKey(k string) error {
	if k == "" || len(k) > maxTagKey {
		return fmt.Errorf("the key must have 1 to %d characters", maxTagKey)
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("the key may hold letters, digits, '_', '-' and '.', not %q", c)
		}
	}
	return nil
}

// TagText writes labels as "k=v k2=v2", keys in order.
func TagText(tags map[string]string) string {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + tags[k]
	}
	return strings.Join(parts, " ")
}
