"""CronCreate, CronList, CronDelete and ScheduleWakeup: prompts scheduled within a session."""
