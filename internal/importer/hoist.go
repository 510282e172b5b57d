package importer

import "strings"

// HoistHeaders moves the headers every request step sends alike to the
// test's headers, so each step shows only what is its own.
func HoistHeaders(flow []Step) ([]Header, []Step) {
	var reqs []int
	for i, st := range flow {
		if st.Think == "" {
			reqs = append(reqs, i)
		}
	}
	if len(reqs) < 2 {
		return nil, flow
	}
	same := func(a, b Header) bool { return strings.EqualFold(a.Name, b.Name) && a.Value == b.Value }
	var common []Header
	for _, h := range flow[reqs[0]].Headers {
		all := true
		for _, i := range reqs[1:] {
			found := false
			for _, g := range flow[i].Headers {
				found = found || same(g, h)
			}
			all = all && found
		}
		if all {
			common = append(common, h)
		}
	}
	for _, i := range reqs {
		var keep []Header
		for _, h := range flow[i].Headers {
			hoisted := false
			for _, c := range common {
				hoisted = hoisted || same(c, h)
			}
			if !hoisted {
				keep = append(keep, h)
			}
		}
		flow[i].Headers = keep
	}
	return common, flow
}
