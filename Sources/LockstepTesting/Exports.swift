@_exported import IssueReporting
@_exported import Lockstep
