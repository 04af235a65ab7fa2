package io.distlock.tck.fuzz;

/**
 * What one finished critical section counts for: what its holder learned about a lost lock (by exception from its
 * release, {@code callWithLock} or re-entry, and through {@code isLost()}), against what the checker saw; a loss its
 * holder was not told of is a violation.
 */
final class SectionVerdict {

    private SectionVerdict() {}

    /** Counts the section in {@code tally}, drawn with {@code plan}, once it was released. */
    static void judge(Tally tally, Section section, LeaseProfile.Plan plan) {
        if (section.entry() == Checker.Entry.VIOLATION || section.state() == Checker.State.VIOLATION) {
            tally.violation(
                    Count.CHECKER_VIOLATIONS_SEEN,
                    section.id() + " on " + section.key() + ": entry " + section.entry() + ", state "
                            + section.state());
            return;
        }
        if (section.entry() == Checker.Entry.NOT_OWNED) {
            tally.add(Count.LOST_BEFORE_ENTRY);
        }
        if (section.lostInside() && !section.lossReported()) {
            tally.violation(
                    Count.UNDETECTED_LOSS,
                    section.id() + " on " + section.key() + " (" + plan.lease()
                            + ") lost its lock inside the section, yet its release returned normally");
            return;
        }
        if (section.lostInside()) {
            tally.add(Count.LOST_DETECTED);
            if (!section.seenLost()) {
                tally.add(Count.LOSS_NOT_YET_SEEN_BY_IS_LOST);
            }
        } else if (section.lossReported()) {
            tally.add(Count.LOST_AFTER_SECTION);
        }
        if (plan.lease().isRenewed() && section.lossReported()) {
            tally.add(Count.RENEWED_LOST);
        } else if (plan.profile() == LeaseProfile.RENEWED_HELD) {
            tally.add(Count.RENEWED_HELD_KEPT);
        }
    }
}
