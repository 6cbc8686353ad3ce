DROP TABLE message_images;
