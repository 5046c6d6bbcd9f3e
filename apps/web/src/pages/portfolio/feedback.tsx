// The status line every portfolio form and action reports into.

export type Feedback = { tone: 'ok' | 'error' | 'warning'; text: string; details?: string[] } | null;

export function FeedbackLine({ feedback }: { feedback: Feedback }) {
  return (
    <div role="status" aria-live="polite">
      {feedback && (
        <div className={`notice notice-${feedback.tone === 'ok' ? 'success' : feedback.tone}`}>
          <p>{feedback.text}</p>
          {feedback.details && feedback.details.length > 0 && (
            <ul>
              {feedback.details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
