/**
 * A spinner for something still loading, named for screen readers by label
 * (a status region); className places it.
 */
export function Loading({ label, className }: { label: string; className: string }) {
  return (
    <div className={className} role="status">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
