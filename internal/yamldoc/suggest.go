package yamldoc

import "strings"

// Closest returns the candidate nearest to s when it is close enough to be
// a likely typo, or "".
func Closest(s string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(1, min(len(s), len(best))/3)
	if best == "" || bestDist > limit {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: Levenshtein with a swap of two neighbours as one edit, since
// "modle" for "model" is one slip of the fingers, not two.
func editDistance(a, b string) int {
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev2, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, prev2
	}
	return rows[1][len(b)]
}
