import type { Connection } from '@spa/mongo';
import { Schema, type Model } from 'mongoose';
import type { VoiceProfileStore } from '../../domain/voice/ports.js';
import type { VoiceProfile } from '../../domain/voice/voice-profile.js';

interface VoiceProfileDoc {
  /** The workspace id: one cached profile per workspace. */
  _id: number;
  sample_size: number;
  average_length: number;
  median_length: number;
  average_lines: number;
  emoji_per_post: number;
  hashtags_per_post: number;
  top_hashtags: string[];
  frequent_phrases: string[];
  question_ratio: number;
  exclamation_ratio: number;
  list_ratio: number;
  tone: string;
  updated_at: Date;
}

export class MongoVoiceProfileStore implements VoiceProfileStore {
  private readonly model: Model<VoiceProfileDoc>;

  constructor(connection: Connection) {
    this.model =
      (connection.models['VoiceProfile'] as Model<VoiceProfileDoc> | undefined) ??
      connection.model<VoiceProfileDoc>(
        'VoiceProfile',
        new Schema<VoiceProfileDoc>(
          {
            _id: Number,
            sample_size: Number,
            average_length: Number,
            median_length: Number,
            average_lines: Number,
            emoji_per_post: Number,
            hashtags_per_post: Number,
            top_hashtags: [String],
            frequent_phrases: [String],
            question_ratio: Number,
            exclamation_ratio: Number,
            list_ratio: Number,
            tone: String,
            updated_at: Date,
          },
          { collection: 'voice_profiles', versionKey: false },
        ),
      );
  }

  async find(workspaceId: number): Promise<VoiceProfile | undefined> {
    const d = await this.model.findById(workspaceId).lean<VoiceProfileDoc>();
    if (!d) return undefined;
    return {
      sampleSize: d.sample_size,
      averageLength: d.average_length,
      medianLength: d.median_length,
      averageLines: d.average_lines,
      emojiPerPost: d.emoji_per_post,
      hashtagsPerPost: d.hashtags_per_post,
      topHashtags: d.top_hashtags ?? [],
      frequentPhrases: d.frequent_phrases ?? [],
      questionRatio: d.question_ratio,
      exclamationRatio: d.exclamation_ratio,
      listRatio: d.list_ratio ?? 0,
      tone: d.tone,
      updatedAt: d.updated_at,
    };
  }

  async save(workspaceId: number, p: VoiceProfile): Promise<void> {
    const doc: Omit<VoiceProfileDoc, '_id'> = {
      sample_size: p.sampleSize,
      average_length: p.averageLength,
      median_length: p.medianLength,
      average_lines: p.averageLines,
      emoji_per_post: p.emojiPerPost,
      hashtags_per_post: p.hashtagsPerPost,
      top_hashtags: p.topHashtags,
      frequent_phrases: p.frequentPhrases,
      question_ratio: p.questionRatio,
      exclamation_ratio: p.exclamationRatio,
      list_ratio: p.listRatio,
      tone: p.tone,
      updated_at: p.updatedAt,
    };
    await this.model.replaceOne({ _id: workspaceId }, doc, { upsert: true });
  }
}
