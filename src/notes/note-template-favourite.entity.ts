import { Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'note_template_favourites' })
export class NoteTemplateFavourite {
  @PrimaryColumn({ name: 'team_id', type: 'text' })
  teamId: string;

  @PrimaryColumn({ name: 'template_id', type: 'text' })
  templateId: string;

  @PrimaryColumn({ name: 'user_id', type: 'text' })
  userId: string;
}
