import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Actor } from '../common/actor';
import { Image } from '../common/image';

export interface NoteTemplateSection {
  title: string;
  description: string;
}

@Entity({ name: 'note_templates' })
export class NoteTemplate {
  @PrimaryColumn({ name: 'team_id', type: 'text' })
  teamId: string;

  @PrimaryColumn({ type: 'text' })
  id: string;

  /** null for a built-in template. */
  @Column({ name: 'owner_id', type: 'text', nullable: true })
  ownerId: string | null;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  context: string;

  @Column({ type: 'jsonb' })
  sections: NoteTemplateSection[];

  @Column({ name: 'ai_actions', type: 'boolean' })
  aiActions: boolean;

  @Column({ name: 'is_shared', type: 'boolean' })
  isShared: boolean;

  @Column({ type: 'jsonb', nullable: true })
  icon: Image | null;

  @Column({ name: 'created_by', type: 'jsonb' })
  createdBy: Actor;

  @Column({ name: 'updated_by', type: 'jsonb' })
  updatedBy: Actor;

  @Column({ name: 'time_created', type: 'timestamptz' })
  timeCreated: Date;

  @Column({ name: 'time_updated', type: 'timestamptz' })
  timeUpdated: Date;
}
