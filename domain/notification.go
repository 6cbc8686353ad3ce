package domain

import "strconv"

// RollupActors names who did something in a rolled-up notification, the way
// a mature social network words it: names are the newest actors still
// shown, newest first, and count how many people there are in all.
//
//	["Asha"], 1              → "Asha"
//	["Asha", "Ben"], 2       → "Asha and Ben"
//	["Asha"], 2              → "Asha and 1 other"
//	["Asha", …], 3           → "Asha and 2 others"
//	["Asha", …], 1240        → "Asha and 1,239 others"
//	[], 1 / [], 5            → "Someone" / "5 people"
//
// The caller adds the verb: "Asha and 2 others liked your post".
func RollupActors(names []string, count int) string {
	count = max(count, len(names))
	switch {
	case len(names) == 0 && count <= 1:
		return "Someone"
	case len(names) == 0:
		return Thousands(count) + " people"
	case count == 1:
		return names[0]
	case count == 2 && len(names) >= 2:
		return names[0] + " and " + names[1]
	case count == 2:
		return names[0] + " and 1 other"
	}
	return names[0] + " and " + Thousands(count-1) + " others"
}

// Thousands writes n with comma thousands separators: 1239 → "1,239".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
