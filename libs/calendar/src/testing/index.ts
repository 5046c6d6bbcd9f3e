// Test helpers of the calendar context, for specs of every context (`@app/calendar/testing`).
export { FixedClock } from './fixed-clock.js';
