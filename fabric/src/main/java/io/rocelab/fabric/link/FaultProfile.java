package io.rocelab.fabric.link;

/**
 * What goes wrong on one direction of a link, frame by frame.
 *
 * <p>Each decision is an independent Bernoulli draw from the direction's seeded generator, in this
 * order: loss (the frame is dropped; it still occupied the wire), corruption (one random bit of a
 * copy of the frame is flipped, the way a bad cable would; the receiver's ICRC or checksum must catch
 * it), duplication (a copy is delivered right after the frame), reordering (the frame is held back
 * by {@code reorderDelayNanos} plus {@code reorderDelayFrames} of its own serialization times, so
 * later frames overtake it). A probability of exactly 0 or 1 draws no number.
 *
 * @param lossProbability      probability a frame is dropped, in [0, 1]
 * @param corruptProbability   probability one bit of a frame is flipped, in [0, 1]
 * @param duplicateProbability probability a frame is delivered twice, in [0, 1]
 * @param reorderProbability   probability a frame is held back, in [0, 1]
 * @param reorderDelayNanos    extra delay of a held-back frame, {@code >= 0}
 * @param reorderDelayFrames   further extra delay, in this frame's serialization times, {@code >= 0}
 */
public record FaultProfile(
    double lossProbability,
    double corruptProbability,
    double duplicateProbability,
    double reorderProbability,
    long reorderDelayNanos,
    int reorderDelayFrames) {

    /** A perfect link. */
    public static final FaultProfile NONE = new FaultProfile(0, 0, 0, 0, 0, 0);

    /**
     * @throws IllegalArgumentException naming the first bad component
     */
    public FaultProfile {
        checkProbability("lossProbability", lossProbability);
        checkProbability("corruptProbability", corruptProbability);
        checkProbability("duplicateProbability", duplicateProbability);
        checkProbability("reorderProbability", reorderProbability);
        if (reorderDelayNanos < 0) {
            throw new IllegalArgumentException("reorderDelayNanos must be >= 0: " + reorderDelayNanos);
        }
        if (reorderDelayFrames < 0) {
            throw new IllegalArgumentException("reorderDelayFrames must be >= 0: " + reorderDelayFrames);
        }
    }

    /**
     * @param probability the new loss probability
     * @return a copy with that loss probability
     */
    public FaultProfile withLoss(double probability) {
        return new FaultProfile(probability, corruptProbability, duplicateProbability, reorderProbability,
            reorderDelayNanos, reorderDelayFrames);
    }

    /**
     * @param probability the new corruption probability
     * @return a copy with that corruption probability
     */
    public FaultProfile withCorruption(double probability) {
        return new FaultProfile(lossProbability, probability, duplicateProbability, reorderProbability,
            reorderDelayNanos, reorderDelayFrames);
    }

    /**
     * @param probability the new duplication probability
     * @return a copy with that duplication probability
     */
    public FaultProfile withDuplication(double probability) {
        return new FaultProfile(lossProbability, corruptProbability, probability, reorderProbability,
            reorderDelayNanos, reorderDelayFrames);
    }

    /**
     * @param probability probability a frame is held back
     * @param delayNanos  fixed extra delay of a held-back frame
     * @param delayFrames further extra delay in serialization times of the held-back frame
     * @return a copy with that reordering
     */
    public FaultProfile withReordering(double probability, long delayNanos, int delayFrames) {
        return new FaultProfile(lossProbability, corruptProbability, duplicateProbability, probability,
            delayNanos, delayFrames);
    }

    /**
     * @return {@code true} if no fault can happen
     */
    public boolean isNone() {
        return lossProbability == 0 && corruptProbability == 0 && duplicateProbability == 0 && reorderProbability == 0;
    }

    private static void checkProbability(String name, double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in [0, 1]: " + p);
        }
    }
}
