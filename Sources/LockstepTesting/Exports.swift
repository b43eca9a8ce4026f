@_exported import Lockstep
