package domain

import "testing"

func TestRollupActors(t *testing.T) {
	tests := []struct {
		names []string
		count int
		want  string
	}{
		{[]string{"Asha"}, 1, "Asha"},
		{[]string{"Asha", "Ben"}, 2, "Asha and Ben"},
		{[]string{"Asha"}, 2, "Asha and 1 other"},
		{[]string{"Asha", "Ben", "Chen"}, 3, "Asha and 2 others"},
		{[]string{"Asha", "Ben", "Chen"}, 1240, "Asha and 1,239 others"},
		{[]string{"Asha", "Ben"}, 1_000_001, "Asha and 1,000,000 others"},
		{[]string{"Asha", "Ben"}, 0, "Asha and Ben"}, // the count never says fewer than the names
		{nil, 0, "Someone"},
		{nil, 1, "Someone"},
		{nil, 5, "5 people"},
		{nil, 1234, "1,234 people"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := RollupActors(tt.names, tt.count); got != tt.want {
				t.Fatalf("RollupActors(%q, %d) = %q, want %q", tt.names, tt.count, got, tt.want)
			}
		})
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1239: "1,239", 123456: "123,456",
		1234567: "1,234,567", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
