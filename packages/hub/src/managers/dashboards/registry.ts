/** A widget an app offers for dashboards. */
export interface AppWidgetDefinition {
  id: string;
  ownerId: string;
  ownerUri: string;
  ownerName: string;
  name: string;
  settings: Record<string, unknown>[];
  height: number | null;
  autocomplete?: (input: {
    settingId: string;
    query: string;
    settings: Record<string, unknown>;
  }) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
}

/** The app widgets of one hub: apps register theirs when they start (each `register` answers its undo). */
export class AppWidgetRegistry {
  private readonly widgets = new Map<string, AppWidgetDefinition>();

  register(widget: AppWidgetDefinition): () => void {
    this.widgets.set(widget.id, widget);
    return () => {
      if (this.widgets.get(widget.id) === widget) this.widgets.delete(widget.id);
    };
  }

  get(id: string): AppWidgetDefinition | undefined {
    return this.widgets.get(id);
  }

  list(): AppWidgetDefinition[] {
    return [...this.widgets.values()];
  }
}
