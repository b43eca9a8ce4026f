/// A clock of the test toolkit whose `sleep` parks the calling task's unit of tracked work (``WorkUnit``)
/// itself, saying until when: LockstepTesting's `ManualClock`.
///
/// Code that sleeps as tracked work on a clock it is given asks this to know whether the clock
/// marks it parked; on any other clock it parks itself before sleeping, so that a wait in the
/// test does not count it as running for the whole sleep.
///
/// ```swift
/// let parksItself = !(clock is any ParkingClock)
/// if parksItself { trackedTask?.park() }
/// try await clock.sleep(for: delay)
/// ```
package protocol ParkingClock {}
