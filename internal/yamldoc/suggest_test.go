package yamldoc

import "testing"

// TestEditDistanceCountsASwapAsOne: a transposition is one edit, as a
// missing, an extra or a wrong letter are; Levenshtein alone made "modle"
// two edits from "model", too far for a five-letter word's suggestion.
func TestEditDistanceCountsASwapAsOne(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"model", "model", 0},
		{"modle", "model", 1},
		{"mdoel", "model", 1},
		{"chekc", "check", 1},
		{"duraton", "duration", 1},
		{"floow", "flow", 1},
		{"heeders", "headers", 1},
		{"ab", "ba", 1},
		{"abc", "ca", 3}, // optimal string alignment: no edit of a swapped pair
		{"", "flow", 4},
		{"flow", "", 4},
		{"banana", "name", 4},
	}
	for _, tc := range tests {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := editDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}
